package dev.codememory.retrieval.ranking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RankingSettingsTests {

    private final RankingSettings defaults = RankingSettings.defaults();

    @Test
    void eachSettingChangesOnlyItself() {
        assertThat(defaults.with("k1", "1.5")).isEqualTo(new RankingSettings(1.5, defaults.b(), defaults.semantic(),
                defaults.lexical(), defaults.recency(), defaults.status(), defaults.halfLifeDays(),
                defaults.cosineFloor(), defaults.cosineCeil(), defaults.turnLexical(), defaults.candidates(),
                defaults.fusion(), defaults.kindWeights(), defaults.sourceLexical(), defaults.questionPenalty(),
                defaults.answerCarry(), defaults.outOfPeriod(), defaults.periodGraceDays(), defaults.textFloor(),
                defaults.turnContext()));
        assertThat(defaults.with("turnContext", "2").turnContext()).isEqualTo(2);
        assertThat(defaults.with("textFloor", "1").textFloor()).isEqualTo(1.0);
        assertThat(defaults.with("b", "0.5").b()).isEqualTo(0.5);
        assertThat(defaults.with("semantic", "0.7").semantic()).isEqualTo(0.7);
        assertThat(defaults.with("lexical", "0.3").lexical()).isEqualTo(0.3);
        assertThat(defaults.with("recency", "0.2").recency()).isEqualTo(0.2);
        assertThat(defaults.with("status", "0.1").status()).isEqualTo(0.1);
        assertThat(defaults.with("halfLifeDays", "30").halfLifeDays()).isEqualTo(30);
        assertThat(defaults.with("cosineFloor", "0.2").cosineFloor()).isEqualTo(0.2);
        assertThat(defaults.with("cosineCeil", "0.8").cosineCeil()).isEqualTo(0.8);
        assertThat(defaults.with("turnLexical", "0.5").turnLexical()).isEqualTo(0.5);
        assertThat(defaults.with("candidates", "200").candidates()).isEqualTo(200);
        assertThat(defaults.with("sourceLexical", "0.3")).satisfies(s -> {
            assertThat(s.sourceLexical()).isEqualTo(0.3);
            assertThat(s.with("sourceLexical", "0.2")).isEqualTo(defaults);
        });
        assertThat(defaults.with("questionPenalty", "0.1").questionPenalty()).isEqualTo(0.1);
        assertThat(defaults.with("answerCarry", "0").answerCarry()).isEqualTo(0.0);
        assertThat(defaults.with("outOfPeriod", "1").outOfPeriod()).isEqualTo(1.0);
        assertThat(defaults.with("periodGraceDays", "0").periodGraceDays()).isZero();
        assertThat(defaults.with("fusion", "rrf").fusion()).isEqualTo(RankingSettings.Fusion.RRF);
        assertThat(defaults.with("kind.summary", "0.3").kindWeight("summary")).isEqualTo(0.3);
        assertThat(defaults.with("kind.summary", "0.3").kindWeight("exchange")).isEqualTo(0.9);
    }

    @Test
    void anUnknownOrInvalidSettingIsRefusedWithItsName() {
        assertThatThrownBy(() -> defaults.with("speed", "1")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("'speed'");
        assertThatThrownBy(() -> defaults.with("sourceLexical", "-1")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("sourceLexical");
        assertThatThrownBy(() -> defaults.with("answerCarry", "1.5")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("answerCarry");
        assertThatThrownBy(() -> defaults.with("questionPenalty", "-0.1")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("questionPenalty");
    }

}
