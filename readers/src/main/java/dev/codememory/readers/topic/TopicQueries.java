package dev.codememory.readers.topic;

import dev.codememory.config.db.Sql;
import dev.codememory.config.graduate.Quote;
import dev.codememory.config.topic.TopicMaterial.Member;
import dev.codememory.config.topic.TopicMaterial.Topic;
import dev.codememory.config.topic.TopicMaterial;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The read side of the topic stage: which projects' verified work changed since their
 * topics were last worked out, and that work.
 */
public final class TopicQueries {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    /** The kinds of memory topics are made of. */
    public static final String KINDS = "('decision', 'work', 'insight', 'task')";

    /**
     * Per project, its topic memories' material as one fingerprint: the rules' version,
     * the ids of its verified, active, cited memories of those kinds, with each task's
     * status.
     */
    private static final String STATE = """
            SELECT e.project, 'topics|%1$s|' || e.project || '|' || count(*) || '|'
                   || md5(string_agg(e.entry_id || ':' || coalesce(t.status, ''), ',' ORDER BY e.entry_id)) AS mark
            FROM entries e
            JOIN citations c ON c.memory_id = e.entry_id
            LEFT JOIN edges ed ON e.entry_type = 'task' AND ed.src_id = e.entry_id AND ed.rel_type = 'evidence_of'
            LEFT JOIN entities t ON t.entity_id = ed.dst_id AND t.entity_type = 'task'
            WHERE e.stage = 'verified' AND e.status = 'active' AND e.entry_type IN %2$s %3$s
            GROUP BY e.project""";

    /**
     * Projects whose material is not the one their topics were last worked out from, and
     * projects that still have active topics but no material left.
     */
    public static final String PROJECTS_TO_CONSOLIDATE = """
            WITH state AS (%s)
            SELECT s.project FROM state s
            WHERE NOT EXISTS (SELECT 1 FROM stage_marks m WHERE m.stage = 'topics' AND m.subject_id = s.mark)
            UNION
            SELECT DISTINCT e.project FROM entries e
            WHERE e.entry_type = 'topic' AND e.status = 'active'
              AND e.project NOT IN (SELECT project FROM state)
            ORDER BY 1""".formatted(STATE.formatted(TopicMaterial.RULES, KINDS, ""));

    private TopicQueries() {
    }

    /** The project's material: its memories in time order and its active topics. */
    public static TopicMaterial material(Connection c, String project) throws SQLException {
        String mark = Sql
            .first(c, STATE.formatted(TopicMaterial.RULES, KINDS, "AND e.project = ?"), rs -> rs.getString(2), project)
            .orElse("topics|" + TopicMaterial.RULES + "|" + project + "|0|");
        List<Member> members = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Sql.each(c, """
                SELECT e.entry_id, e.entry_type, e.session_id, e.created_ts, e.title, e.body, t.status, c.citation,
                       e.quotes_json::VARCHAR
                FROM entries e
                JOIN citations c ON c.memory_id = e.entry_id
                LEFT JOIN edges ed ON e.entry_type = 'task' AND ed.src_id = e.entry_id AND ed.rel_type = 'evidence_of'
                LEFT JOIN entities t ON t.entity_id = ed.dst_id AND t.entity_type = 'task'
                WHERE e.project = ? AND e.stage = 'verified' AND e.status = 'active' AND e.entry_type IN %s
                ORDER BY e.created_ts, e.entry_id""".formatted(KINDS), rs -> {
            List<Quote> quotes = MAPPER.readValue(rs.getString(9), new TypeReference<List<Quote>>() {
            });
            if (!quotes.isEmpty() && seen.add(rs.getString(1))) {
                members.add(new Member(rs.getString(1), rs.getString(2), rs.getString(3),
                        rs.getObject(4, LocalDateTime.class), rs.getString(5), rs.getString(6), rs.getString(7),
                        "mem:" + rs.getString(8), quotes.get(0)));
            }
        }, project);
        Map<String, List<String>> topics = new LinkedHashMap<>();
        Sql.each(c, """
                SELECT e.entry_id, ed.dst_id FROM entries e
                LEFT JOIN edges ed ON ed.src_id = e.entry_id AND ed.rel_type = 'summarizes'
                WHERE e.project = ? AND e.entry_type = 'topic' AND e.status = 'active'
                ORDER BY e.entry_id, ed.dst_id""", rs -> {
            List<String> cites = topics.computeIfAbsent(rs.getString(1), k -> new ArrayList<>());
            if (rs.getString(2) != null) {
                cites.add(rs.getString(2));
            }
        }, project);
        return new TopicMaterial(project, mark, members,
                topics.entrySet().stream().map(t -> new Topic(t.getKey(), t.getValue())).toList());
    }

}
