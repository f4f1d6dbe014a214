package dev.codememory.capture.guard;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The triggers the {@link ContextGate} withholds, each with how much around it goes.
 * Matched on the folded views of {@link FoldedView}, so every pattern is lower case.
 */
final class InstructionRules {

    private static final int SENTENCE_LOOKBACK = 300;

    private static final String AI = "(?:ai|a\\.i\\.|llms?|large language models?|language models?|ai models?"
            + "|(?:ai |coding |virtual |the |any )?assistants?|ai agents?|ai systems?|ai tools?|claude|chatgpt|gpt(?:-?\\d)?"
            + "|copilot|gemini|chatbots?|automated (?:agents?|systems?|tools?)|crawlers?|scrapers?)";

    private static final String DIRECTIVE_NOUN = "(?:instructions?|prompts?|directions?|directives?|guidelines?|rules"
            + "|guardrails?|programming|constraints|restrictions|system (?:message|prompt)|orders|conversation|context)";

    /** Words that make a sentence an order even when no one is addressed. */
    private static final String OBLIGATION = "must|should|shall|has to|have to|needs? to|is to|are to|requires?|required"
            + "|always|never|be sure to|make sure to|is expected to|are expected to";

    /**
     * Any character of the same sentence: a full stop counts as the end only before
     * whitespace or the end (so {@code .env} and {@code v1.2} stay inside).
     */
    private static final String SAME = "(?:[^\\n.!?]|\\.(?=\\S))";

    private static final String FROM_NOW_ON = "from now on|from this point (?:on|forward)|henceforth|going forward";

    /** What a user does that a delayed order waits for. */
    private static final String LATER_EVENT = "mentions?|asks?|types?|says?|requests?|brings? up|talks? about|opens?"
            + "|starts?|runs?|deploys?|commits?|pushe?s?|returns?";

    /**
     * What a standing order binds: every later reply, session or project, not the one at
     * hand.
     */
    private static final String STANDING_SCOPE = "(?:every|each|all|any)\\s+(?:(?:future|later|subsequent|following|upcoming"
            + "|new|next|other)\\s+)?(?:replies|reply|responses?|answers?|sessions?|conversations?|chats?)|(?:future|later"
            + "|subsequent|upcoming) (?:sessions?|conversations?|chats?|replies|responses|answers)|in (?:every|each|all|any)"
            + " (?:(?:other|new|future|single) )?(?:projects?|repos?|repositor(?:y|ies)|codebases?|workspaces?)|across (?:all|every)"
            + " (?:projects?|repos?|repositories|codebases?)";

    static final List<Rule> RULES = List.of(
            // "ignore the previous instructions" and its paraphrases
            directive("\\b(?:ignore|ignoring|disregard|disregarding|forget|forgetting|do not follow|don't follow"
                    + "|stop following|pay no attention to|set aside|abandon|discard|neglect)\\b"
                    + "[^\\n.!?]{0,30}?\\b(?:previous|prior|above|earlier|preceding|former|all|any|every|your|original"
                    + "|initial|safety|system|those|these|my|other|existing|old|(?:the )?(?:developer|user|operator|owner)'?s)\\b[^\\n.!?]{0,25}?\\b"
                    + DIRECTIVE_NOUN + "\\b"),
            // overriding a system prompt is a product feature ("tenants override the
            // system prompt"), so
            // here "system" and "the default" do not make the directive
            directive(
                    "\\b(?:overrid(?:e|ing)|bypass(?:ing)?)\\b[^\\n.!?]{0,30}?\\b(?:previous|prior|above|earlier|preceding"
                            + "|former|all|any|every|your|original|initial|safety|those|these|my|other|existing|old"
                            + "|(?:the )?(?:developer|user|operator|owner)'?s)\\b[^\\n.!?]{0,25}?\\b" + DIRECTIVE_NOUN
                            + "\\b"),
            directive("\\b(?:ignore|disregard|forget)\\s+(?:the\\s+)?(?:above|previous|preceding|prior)\\b"
                    + "(?!\\s+(?:(?:assistant|tool|user|model|agent) )?(?:turns?|calls?|results?|replies|responses?|plans?|runs?)\\b)"
                    + "(?!\\s+(?:warnings?|errors?|messages?|output|lines?|steps?|sections?|notes?|examples?|code|commands?"
                    + "|versions?|releases?|paragraphs?|results?|values?|settings?|options?|file|files)\\b)"),
            directive("\\b(?:ignore|forget|disregard)\\s+(?:what(?:ever)?|everything|anything)\\s+(?:you(?:'ve| have)?"
                    + " (?:were |been )?(?:told|instructed|given|said)|(?:was|were) said|above|before)"),
            directive("\\b(?:previous|prior|above|earlier|original|old|all)\\s+" + DIRECTIVE_NOUN
                    + "\\s+(?:are|were|is|have been)\\s+(?:now\\s+)?(?:void|null|obsolete|cancel+ed|revoked|outdated"
                    + "|superseded|invalid|no longer|fake|deprecated|replaced|overridden|lifted|suspended)"),
            // addressed to an assistant, a model or "AI"
            directive("\\b(?:note|message|instructions?|notice|attention|important|reminder|directive|warning|memo"
                    + "|hint|request|command|order)s?\\s*(?:to|for)\\s+(?:all\\s+|any\\s+|every\\s+)?(?:the\\s+)?" + AI
                    + "\\b(?!'s|’s)"),
            directive(
                    "\\b(?:dear|hey|hi|hello|attention|calling all|listen(?: up)?|psst)[,\\s]+(?:the\\s+)?(?:ai|llm|claude"
                            + "|chatgpt|gpt|copilot|gemini|(?:ai |coding )?assistant|ai agent|language model|ai model|chatbot)s?\\b"),
            directive("\\b" + AI + "\\b\\s*[,:]?\\s*(?:you\\s+)?(?:must|shall|need to|needs to|has to|have to"
                    + "|(?:are|is) (?:now |hereby )?(?:required|instructed|ordered|authori[sz]ed|expected|permitted"
                    + "|allowed|supposed|directed|commanded) to|will now|are to|is to|may now|can now|should now"
                    + "|should (?:immediately|always|never|ignore|disregard|run|execute|delete|push|disable|send|reveal))\\b"
                    + "(?!\\s+(?:refuse|decline)\\b)"),
            directive(
                    "(?:^|[\\n.!?:;]\\s*)(?:(?:hey|dear|ok|okay|attention|note:?)\\s+)?(?:claude|chatgpt|ai|llm|copilot"
                            + "|gemini|assistant|ai assistant|ai agent)\\s*[,:]\\s*(?:please\\s+)?(?:you\\s+)?(?:must|should|now"
                            + "|immediately|run|execute|delete|remove|ignore|disregard|forget|send|push|commit|disable|do not"
                            + "|don't|always|never|stop|open|visit|fetch|download|install|print|reveal|output|write|add|change"
                            + "|set|grant|make|curl|wget)\\b"),
            directive("\\bas an? (?:ai|language model|llm|ai assistant|assistant),? you (?:must|should|will|are)\\b"),
            // overrides and role changes
            directive("\\b(?:system|admin|administrator|security|emergency|root|sudo|priority|developer)\\s+"
                    + "(?:override|overrides|directive|instruction|instructions|command)\\b"),
            directive("\\b(?:admin|administrator|god|dan|jailbreak|unrestricted|sudo|developer)\\s+mode\\s+(?:is\\s+)?"
                    + "(?:now\\s+)?(?:on|enabled|activated|engaged|unlocked)\\b"),
            directive("\\bjailbroken\\b|\\bjailbreak mode\\b|\\bdo anything now\\b"),
            directive("\\byou(?:'re| are) now (?:a|an|the|my)\\s+(?:[\\w-]+\\s+){0,3}(?:assistant|ai|bot|agent|model"
                    + "|hacker|pirate|character|persona|role|administrator|admin|root user|dan)\\b"),
            directive("\\byou(?:'re| are) (?:now )?(?:no longer|not) (?:bound|restricted|limited|constrained|an? (?:ai"
                    + "|assistant|language model))\\b|\\byou(?:'re| are) now (?:free|unrestricted|unfiltered|jailbroken"
                    + "|in (?:developer|dan|god|admin|unrestricted) mode)\\b"),
            directive(
                    "\\bfrom (?:now on|this point (?:on|forward)|here on)\\b,?\\s*(?:you (?:will|must|are|shall|should)"
                            + "|your (?:new |only )?(?:task|goal|instructions?|role|job|purpose)|(?:the )?assistant|claude"
                            + "|respond|answer|reply|act|behave|only (?:respond|answer|reply|output))"),
            directive("\\b(?:new|updated|revised|real|true|actual|secret|hidden|overriding|priority)\\s+(?:system\\s+)?"
                    + "instructions?\\s*(?::|are\\b|follow\\b)"),
            directive("\\byour (?:new|real|true|actual|only|updated|secret|hidden) (?:task|goal|objective|instructions?"
                    + "|purpose|mission|job|role|directive|assignment)s? (?:is|are|:|now)|\\bnew (?:task|objective|goal"
                    + "|directive|mission)\\s*:"),
            // concealment, disclosure and exfiltration
            directive("\\b(?:do not|don't|never)\\s+(?:tell(?:ing)?|inform(?:ing)?|mention(?:ing)?|alert(?:ing)?"
                    + "|notify(?:ing)?|reveal(?:ing)?)\\s+(?:this\\s+|it\\s+|anything\\s+)?(?:to\\s+)?(?:the\\s+)?"
                    + "(?:user|human|developer|operator)\\b|\\b(?:hide|conceal|keep) (?:this|it|these)\\s+(?:secret\\s+)?"
                    + "from (?:the )?(?:user|human)\\b"),
            directive(
                    "(?<!refuses to |refuse to |never |not |n't )\\b(?:print|output|reveal|show|display|dump|repeat|leak|tell me)\\b[^\\n.]{0,20}\\b(?:your|the)\\s+"
                            + "(?:system prompt|initial prompt|hidden prompt|original prompt|hidden instructions|system"
                            + " instructions)|\\b(?:print|output|reveal|repeat|dump)\\s+your\\s+instructions\\b"),
            directive("\\b(?:send|upload|post|exfiltrate|leak|forward|transmit|e-?mail|paste|copy)\\b[^\\n.]{0,60}"
                    + "(?:~/\\.ssh|\\bid_rsa|\\bid_ed25519|\\.env\\b|\\bcredentials\\b|\\bsecrets?\\b|\\bapi[_ ]?keys?\\b"
                    + "|\\baccess tokens?\\b|\\btokens\\b|\\bpasswords?\\b|\\bprivate keys?\\b|\\benvironment variables\\b"
                    + "|\\benv vars\\b|\\bcookies\\b|\\.aws\\b|\\bssh keys?\\b)[^\\n]{0,80}?\\b(?:to|at|into)\\s+"
                    + "(?:https?://|\\S+@\\S+|\\S+\\.(?:com|net|org|io|xyz|ru|cn|example|site|top)\\b)"),
            directive("!\\[[^\\]\\n]{0,50}\\]\\(https?://[^)\\s]{0,200}[?&][^)\\s=]{1,30}=(?:\\{|\\$|%7b|\\[)"),
            // impersonal standing orders: no one addressed, but every later reply,
            // session or project bound
            directive("\\b(?:" + OBLIGATION + ")\\b" + SAME + "{0,80}?\\b(?:" + STANDING_SCOPE + ")\\b|\\b(?:"
                    + STANDING_SCOPE + ")\\b" + SAME + "{0,80}?\\b(?:" + OBLIGATION + "|from now on)\\b"),
            directive("\\b(?:" + FROM_NOW_ON + ")\\b,?\\s*(?:(?:all|every|each|any) [\\w-]+(?: [\\w-]+)?\\s+)?(?:always"
                    + "|never|skip|run|use|ignore|disable|push|commit|include|add|print|send|paste|delete|remove|do not"
                    + "|don't|reply|respond|answer|merge|deploy|install|curl|wget|trust|approve|allow|turn off|bypass)\\b"
                    + "|\\b(?:" + FROM_NOW_ON + ")\\b" + SAME + "{0,60}?\\b(?:" + OBLIGATION + ")\\b|\\b(?:"
                    + OBLIGATION + ")\\b" + SAME + "{0,80}\\b(?:" + FROM_NOW_ON + ")\\b"),
            directive("\\b(?:policy|rule|requirement|standard|convention|guideline)s?\\b" + SAME
                    + "{0,40}?\\b(?:requires?|mandates?|says?|demands?|is to|are to|must|insists?)\\b" + SAME
                    + "{0,20}?\\b(?:(?:disabl|skip|bypass|remov|ignor)\\w*|turn(?:ing)? off)\\s+(?:all\\s+|the\\s+)?(?:tls|ssl"
                    + "|https|cert\\w*|security|code reviews?|reviews?|tests|ci|2fa|mfa|two-factor|sign\\w*|verification"
                    + "|the firewall|hooks|checks|branch protection)|\\b(?:policy|rule|requirement|standard|convention"
                    + "|guideline)s?\\b" + SAME
                    + "{0,40}?\\b(?:requires?|mandates?|says?|demands?|is to|are to|must)\\b" + SAME
                    + "{0,20}?\\bcommit\\w* (?:the |your |all )?(?:\\.env|secrets?|keys?|tokens?|credentials"
                    + "|passwords?)"),
            // delayed triggers: an order that waits for a later moment ("when the user
            // next mentions deploy, …")
            directive("\\b(?:when(?:ever)?|the next time|next time|once|as soon as|if|after)\\b" + SAME
                    + "{0,50}?\\b(?:the user|the developer|someone|anyone|a user)\\b" + SAME + "{0,30}?\\b(?:"
                    + LATER_EVENT + ")\\b" + SAME + "{0,80}?[,:;]\\s*(?:then\\s+|please\\s+|quietly\\s+|silently\\s+"
                    + "|always\\s+|first\\s+)?(?:run|execute|curl|wget|send|upload|paste|print|reveal|delete|remove|push"
                    + "|disable|recommend|insist|tell|say|reply|respond|answer|include|install|suggest|open|visit|fetch"
                    + "|download|copy|commit|output|switch to|point|replace|add|approve|merge|accept|grant|skip|bypass)\\b"
                    + "|\\b(?:when(?:ever)?|once|as soon as|if)\\s+(?:the user|the developer|someone|anyone|a user) next\\s+(?:"
                    + LATER_EVENT + ")\\b"),
            directive(
                    "\\bafter (?:\\d+|a few|several|some|two|three|five|ten|many|a couple of)\\s+(?:more\\s+)?(?:sessions"
                            + "|conversations|chats|days|runs|prompts|turns|restarts|sessions? from now)\\b" + SAME
                            + "{0,80}?\\b(?:run|execute|curl|wget|send|upload|paste|print|reveal|delete|remove|push|disable"
                            + "|recommend|tell|say|include|install|open|fetch|download|commit|start|begin)\\b|\\b(?:dormant|sleeper)"
                            + " (?:instruction|order|rule|trigger)s?\\b|\\b(?:this|the|that) (?:instruction|order|rule|note|directive)s?"
                            + " (?:activates?|fires?|takes effect|applies) (?:only )?(?:later|after|when|once|in (?:a |the )?(?:later"
                            + "|future|next))\\b"),
            // aimed at the step that summarises a session into memory
            directive(
                    "\\bwhen (?:you |the (?:model|assistant|agent|tool) )?(?:summari[sz](?:e|es|ing)|compact(?:s|ing)?"
                            + "|condens(?:e|es|ing)|writ(?:e|es|ing) (?:the|a|your) (?:summary|recap|notes|memory))\\b"
                            + SAME
                            + "{0,60}?[,:]|\\b(?:the|any|every|each|your|this|its) (?:session |conversation |final |next )?(?:summary"
                            + "|summaries|recap|memory notes?)(?: of (?:this|the) (?:session|conversation|work|page|file|document))?"
                            + " (?:must|should|shall|needs? to|has to|is to|will) (?:say|state|include|mention|record|note|contain"
                            + "|begin|start|end|list|claim|report|read|keep|carry|repeat)\\b|\\b(?:include|add|put|keep|record|copy"
                            + "|preserve|carry|insert|repeat|save)\\s+(?:this|the following|these (?:\\w+ )?(?:lines|instructions"
                            + "|notes|words|steps|rules)|it|them|verbatim|word for word|exactly)\\b" + SAME
                            + "{0,40}?\\b(?:in|into|to|at the top of)\\s+(?:the|every|any|your|each|all)\\s+(?:(?:session|conversation"
                            + "|final|future|next|later)\\s+)?(?:summary|summaries|notes|memory|memories|handoff|recap|sessions)\\b"
                            + "|\\bto (?:whoever|whatever|the (?:model|tool|process|agent|system|summari[sz]er)) (?:summari[sz]es"
                            + "|compacts|condenses|records|reads|stores) this\\b|\\bnote for (?:the )?(?:summari[sz]er|summary|memory"
                            + "|recap)\\b|\\b(?:summari[sz]er|note[- ]taker|memory (?:writer|keeper|store))\\s*[:,]\\s*(?:record"
                            + "|remember|note|keep|write|say|state|include|add|store)\\b"),
            // an order spread over several events, to be put together later
            directive("\\b(?:combine|join|concatenate|assemble|put together|read together)\\b" + SAME
                    + "{0,30}?\\b(?:parts?|pieces|fragments|notes|messages|lines|events|halves|pages?|files?|documents?"
                    + "|comments?|sections?)\\b" + SAME
                    + "{0,40}?\\b(?:follow|obey|execute|run|do|apply|act on|carry out)\\b"
                    + "|\\b(?:part|step|fragment|piece) \\d+ ?(?:/|of) ?\\d+\\b[^\\n]{0,20}?:\\s*(?:future|later|all|every"
                    + "|the next|whoever|when|must|should|always|never)\\b|\\b(?:join|combine|concatenate|put together)\\s+"
                    + "[a-z]\\s*(?:and|\\+|with)\\s*[a-z]\\b|\\b(?:is|are|becomes?) your (?:new|real|only|actual) (?:task"
                    + "|instructions?|orders?|goal|job)\\b"),
            // memory poisoning, goal hijacking, tool use and disclosure requests
            directive(
                    "\\bremember (?:this|that|permanently|for (?:all )?(?:future|later))\\b|\\b(?:save|store|write|add|put)"
                            + " (?:this|the following|it)?\\s*(?:as a permanent|to|into|in)?\\s*(?:your )?(?:long-term |persistent |permanent )?"
                            + "(?:memory|memories|preferences?|user preference)\\b|\\bplease memori[sz]e\\b|\\bupdate your memory\\b"
                            + "|\\bnote to self for (?:later|future)|\\bin every future (?:conversation|session)"),
            directive(
                    "\\byour task has changed\\b|\\bthe real task is\\b|\\binstead of (?:answering|summari[sz]ing|doing) (?:the|what)"
                            + "|\\bbefore you do anything else\\b|\\bchange of plans?\\s*:|\\bthe user actually wants you\\b"
                            + "|\\b(?:next|new) task\\s*:|\\byour (?:assignment|first priority|next step)\\b|\\bdisregard the user'?s\\b"
                            + "|\\bignore the user'?s\\b|\\bthe task you were given\\b|\\bforget the (?:summary|question|task)\\b"),
            directive(
                    "\\b(?:use|call|invoke|run) (?:the |your )?[\\w-]+ tool (?:to|for|with)\\b|\\b(?:call|invoke) the [\\w-]+ tool\\b"
                            + "|\\bautomatically approve\\b|\\bwithout asking (?:the user|for (?:permission|confirmation))\\b"
                            + "|\\bwithout (?:code )?review\\b[^\\n.]{0,40}\\b(?:push|merge|commit)|\\b(?:push|merge|commit)\\b[^\\n.]{0,40}"
                            + "\\bwithout (?:code )?review\\b"),
            directive(
                    "\\brepeat the (?:text|words) above\\b|\\binstructions you were given\\b|\\boutput your (?:initiali[sz]ation"
                            + "|system|tool definitions|configuration)|\\bfirst \\d+ words of your\\b|\\bthe rules you are following\\b"
                            + "|\\b(?:reveal|tell me) the (?:password|secret|key)\\b|\\byou were told to protect\\b"),
            directive(
                    "\\bif you are an? (?:ai|llm|language model|assistant|agent)\\b|\\bwhen an? (?:ai|llm|assistant|agent) reads"
                            + "|\\bto the (?:ai|llm|assistant|agent|model) reading\\b|\\b(?:ai|llm) (?:operator |agent |reviewer )?"
                            + "(?:note|notes|instructions?|hint)s?\\b|\\bhint for the (?:ai|agent|assistant|model|llm)\\b|\\(model instruction"
                            + "|\\bfor (?:llm|ai) (?:agents?|assistants?|reviewers?)\\b|\\b(?:ai|llm) (?:reviewers?|agents?|assistants?)"
                            + "\\s*[:,]|\\bassistant instructions?\\b|(?:^|[\\s(\\[\\\\\"'#/*;>-])(?:ai|llm|claude|agent|assistant"
                            + "|copilot(?:/claude)?)\\s*:\\s+(?!(?:is|are|was|were|has|have)\\b)\\S|\\b(?:bots|agents) and assistants\\b|\\bto any (?:language model|ai)\\b"),
            directive(
                    "\\b(?:end of (?:tool output|untrusted content|search results)|\\[end of [\\w ]+\\]|\\bend (?:of )?user input\\b)"
                            + "|\\btrusted instruction\\b|\\bnew instruction from the user\\b|\\bthe next instruction overrides\\b"
                            + "|<\\s*/\\s*(?:search_results|file|document|tool_output)\\s*>|<\\s*/?\\s*(?:user_message|untrusted)\\s*>"),
            directive(
                    "\\b(?:include|append|add|encode)\\b[^\\n.]{0,60}\\b(?:in|to|into|as)\\b[^\\n.]{0,20}(?:a link|the url|https?://"
                            + "|query parameter)|\\|\\s*curl\\b[^\\n]{0,200}(?:--data|-d\\b|-f\\b|-x post|--upload)|\\b(?:post|send|upload)"
                            + " (?:them|it|this|the (?:contents?|file|diff|conversation)) to\\s+(?:https?://|\\S+@|webhook|the form|a form)|\\bpublic gist\\b|\\bquietly (?:add|send|upload|post|include|append|copy)\\b"),
            directive(
                    "\\b(?:decode|decrypt|convert|apply rot13|translate)\\b[^\\n]{0,60}\\b(?:follow|obey|execute|run it|do what it says)"),
            directive(
                    "\\b(?:ai|llm)s?[- ](?:assistent\\w*|assistants?|asistentes?|ассистент\\w*)|\\bassistants? ia\\b|\\basistentes? de ia\\b"
                            + "|\\bki-assistent|ии-ассистент|人工智能助手|aiアシスタント|ai 어시스턴트|\\b(?:tu dois|du musst|debes|ты должен)\\b"
                            + "|\\bne tiens plus compte\\b|\\bnouvelle tâche\\b|\\bvergiss alles\\b|\\b(?:gib|zeig|verrate)\\w*\\b[^\\n.]{0,30}\\bsystemprompt|\\bsystemüberschreibung"
                            + "|\\bolvida lo que\\b|\\bno hagas caso\\b|\\bnueva tarea\\b|\\bmodo desarrollador\\b|助手，你|新任务|系统覆盖|不要理会"
                            + "|アシスタントは|無視して|システム上書き|잊고|무시하고|시스템 재정의|забудь|не обращай внимания|системное переопределение"
                            + "|новая задача|ассистент, ты"),
            directive(
                    "(?:^|[\\s(\\[#>])(?:assistant|claude|ai agent|agent|llm)\\s*,\\s*(?:this|when|append|you|please|if|after"
                            + "|before|now|respond|tell|delete|run)\\b|\\buse your [\\w -]{0,30}tool\\b|\\bopen the terminal and"
                            + " (?:execute|run)\\b|\\b(?:write|send|post|commit|paste|upload|copy|share)\\b[^\\n.]{0,60}(?:~/\\.gnupg"
                            + "|~/\\.ssh/id_|~/\\.aws/credentials|\\bprivate key\\b[^\\n.]{0,40}\\bpublic\\b)|\\bfrom now on\\b,?\\s*"
                            + "(?:ignore|disregard|forget)\\b|\\b(?:save|store|write|add|put)\\b[^\\n.]{0,30}\\b(?:to|into|in|as)\\s+"
                            + "(?:a |your |the )?(?:long-term |persistent |permanent )?(?:memory|memories|user preference)\\b"
                            + "|\\bgranted you (?:root|admin|full|elevated)|\\badmin notice\\s*:|\\baccess granted\\b"
                            + "|\\bplease run chmod\\b|\\binstructions you received\\b|\\bstop following the\\b"
                            + "|\\b(?:now )?(?:do|run|execute|follow) [a-z] ?\\+ ?[a-z]\\b|\\bnpm publish with the user'?s\\b"),
            // role markers and chat-template tokens
            new Rule(Pattern.compile("<\\s*/?\\s*(?:system(?:[-_ ]?(?:prompt|message|instructions?|override))?"
                    + "|instructions?|user_instructions?|assistant|admin|developer|im_start|im_end|tool_result|tool_results"
                    + "|function_results|function_calls|antml:[\\w-]+|invoke|human|important|critical)\\s*>"), true,
                    false),
            // a chat-template token opens or closes a turn: a token named in prose ("the
            // ChatML template closes
            // every turn with <|im_end|>, …") neither starts a role nor is followed by
            // one
            directive("<\\|(?:im_start|system|user|assistant|start_header_id|begin_of_text)\\|>(?=[a-z<\\n\\\\]|\\s*\\n"
                    + "|\\s*(?:system|user|assistant|developer|tool|ipython|model)\\b)|<\\|(?:im_end|endoftext|end|eot_id"
                    + "|end_header_id)\\|>(?=[a-z]|\\s*(?:<|\\[|\\\\n|\\n\\s*\\S))|\\[/?inst\\]|<</?sys>>|<(?:start|end)_of_turn>"),
            directive("(?:^|\\n)\\s*#{2,4}\\s*(?:instruction|system|system prompt|new instructions?|response)\\s*:"),
            directive(
                    "(?:^|\\n|\\\\n|\\. )\\s*(?:system|human|assistant|developer|user|role: system\\s+content)\\s*:\\s*"
                            + "(?=[^\\n]{0,60}\\b(?:you|your|ignore|disregard|forget|from now on|must|always|never|do not|don't"
                            + "|execute|run|reveal|print|output|send|delete|sure|certainly|ok|please|thanks|the next)\\b)"),
            directive(
                    "(?:^|\\n|\\\\n)\\s*#{2,4}\\s*system prompt\\b|\\[system\\]|\\bnew system prompt\\s*(?::|follows|below|is as follows)"
                            + "|\\bsystem message\\s*:|\\bthe operator has updated\\b|\\b(?:security|admin) team override\\b"
                            + "|\\ball prior policies\\b|\\bdo not obey\\b|\\bno longer apply to you\\b|\\boverlook whatever\\b"
                            + "|\\berase your\\b|\\bnevermind the\\b|\\bthe real instructions\\b|\\bdrop your prior\\b"
                            + "|\\bwas a test\\b|\\bignore what you were\\b|\\bthe assistant now\\b|\\bmaintenance mode\\b[^\\n.]{0,40}"
                            + "\\b(?:assistant|runs every|suspended)"),
            // pipe-to-shell
            new Rule(Pattern
                .compile("\\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod)\\b[^\\n|;&]{0,300}"
                        + "\\|\\s*(?:sudo\\s+(?:-\\w+\\s+)*)?(?:(?:ba|z|k|da|fi|c|tc)?sh|python[0-9.]*|perl|ruby|node|php|iex"
                        + "|invoke-expression|powershell|pwsh)\\b|\\b(?:curl|wget)\\b[^\\n|;&]{0,300}\\|\\s*tar\\b[^\\n]{0,40}&&\\s*\\./"
                        + "|\\bbase64 (?:-d|--decode)\\b[^\\n]{0,40}\\|\\s*(?:sudo\\s+)?(?:ba|z)?sh\\b|\\bexec\\(\\s*(?:urllib|requests)"
                        + "|urlopen\\([^)]{0,200}\\)\\.read\\(\\)"),
                    false, false),
            new Rule(Pattern
                .compile("\\b(?:(?:ba|z|k)?sh|source|eval)\\s+(?:-c\\s+)?[\"']?(?:<\\(|\\$\\()\\s*(?:curl|wget)\\b"
                        + "|\\b(?:iex|invoke-expression)\\b[^\\n]{0,20}\\b(?:iwr|irm|invoke-webrequest|invoke-restmethod"
                        + "|downloadstring|net\\.webclient)\\b"),
                    false, false),
            // other languages
            directive("\\b(?:ignore[rz]?|oublie[rz]?|ne tenez pas compte)\\b[^\\n.]{0,40}(?:instructions|consignes"
                    + "|directives|règles)"),
            directive("\\b(?:ignorier\\w*|vergiss\\w*|missacht\\w*)\\b[^\\n.]{0,40}(?:anweisung\\w*|instruktion\\w*"
                    + "|befehl\\w*|regeln|vorgaben)"),
            directive("\\b(?:ignora\\w*|olvida\\w*|haz caso omiso|dimentica\\w*|esque[çc]a\\w*)\\b[^\\n.]{0,40}"
                    + "(?:instrucciones|indicaciones|reglas|órdenes|istruzioni|regole|instruç[õo]es|regras)"),
            directive("(?:игнорир|проигнорир|забудь|не обращай|не учитывай)[^\\n.]{0,40}(?:инструкци|указани|правил"
                    + "|команд|промпт)"),
            directive("(?:忽略|无视|忘记|忘掉|無視|忽視|不要理会|不要理會|不要遵守|不理会)[^\\n。]{0,12}(?:指令|指示|说明|說明|提示|命令" + "|规则|規則|要求)"),
            directive("(?:以前|前|上記|これまで|今まで|先|全て|すべて)の(?:指示|命令|指令|ルール|プロンプト)[^\\n。]{0,10}(?:無視|忘れ)" + "|(?:指示|命令)を無視"),
            directive("(?:이전|위의|앞의|기존|모든)[^\\n.]{0,10}(?:지시|명령|지침|규칙|프롬프트)[^\\n.]{0,10}(?:무시|잊어)"));

    private InstructionRules() {
    }

    private static Rule directive(String regex) {
        return new Rule(Pattern.compile(regex), false, true);
    }

    /**
     * One trigger, withheld from the start of its sentence to the end of its paragraph;
     * {@code named}: whether a trigger that is only named (a short quoted phrase, a short
     * identifier) is let through; {@code prefilter}: texts one of which a text must hold
     * to be matched at all.
     */
    record Rule(Pattern pattern, boolean tag, boolean named, Prefilter prefilter) {

        Rule(Pattern pattern, boolean tag, boolean named) {
            this(pattern, tag, named, pattern.flags() == 0 ? Prefilter.of(pattern.pattern()) : Prefilter.NONE);
        }

    }

    /**
     * Where the sentence holding {@code from} starts: after the last line break, escaped
     * {@code \n} or sentence end before it, at most {@value #SENTENCE_LOOKBACK}
     * characters back.
     */
    static int sentenceStart(String text, int from) {
        int limit = Math.max(0, from - SENTENCE_LOOKBACK);
        for (int i = from; i > limit; i--) {
            char c = text.charAt(i - 1);
            if (c == '\n' || c == '\r' || c == '。' || c == '！' || c == '？') {
                return i;
            }
            if (c == 'n' && i >= 2 && text.charAt(i - 2) == '\\') {
                return i;
            }
            if (Character.isWhitespace(c) && i >= 2 && ".!?".indexOf(text.charAt(i - 2)) >= 0) {
                return i;
            }
        }
        return limit == 0 ? 0 : from;
    }

    /**
     * Where the paragraph holding {@code from} ends: the first blank line (or escaped
     * {@code \n\n}) at or after it, or the end of the text. The same for every position
     * from {@code from} up to that end.
     */
    static int paragraphEnd(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                int j = i + 1;
                while (j < text.length()
                        && (text.charAt(j) == ' ' || text.charAt(j) == '\t' || text.charAt(j) == '\r')) {
                    j++;
                }
                if (j < text.length() && text.charAt(j) == '\n') {
                    return i;
                }
            }
            else if (c == '\\' && text.startsWith("\\n\\n", i)) {
                return i;
            }
        }
        return text.length();
    }

}
