# ruff: noqa: E501
"""Dimension archetypes: reusable, bilingual research dimensions the offline planner instantiates.

Why archetypes: seed 004 wants dimensions that can each stand as a sub-report, with answerable
key questions, a method, a search strategy and a stop condition — not the final report's
chapters. Each archetype is one such unit of research (definitions, mechanism, chronology,
candidates, ...), written with ``{s}`` (the request's subject, in its own words) and ``{o}``
(one object, for per-candidate dimensions). A report type in the catalogue lists the archetypes
it needs, in execution order; ``upstream`` names the real inputs an archetype consumes from an
earlier one and how they change its search (``scope_rule``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

Text = dict[str, str]
TextList = dict[str, list[str]]


@dataclass(frozen=True)
class Upstream:
    """A real dependency on an earlier archetype: what it is needed for and how it narrows the search."""

    archetype: str
    needed_for: str
    scope_rule: Text


@dataclass(frozen=True)
class Archetype:
    """One reusable research dimension template."""

    key: str
    name: Text
    description: Text
    key_questions: TextList
    method: Text
    source_types: TextList
    seed_queries: TextList
    expected_output: Text
    focus: Text
    owns: Text
    time_bound: bool = False
    upstream: tuple[Upstream, ...] = field(default_factory=tuple)


def _a(key: str, **kw: object) -> Archetype:
    return Archetype(key=key, **kw)  # type: ignore[arg-type]


ARCHETYPES: dict[str, Archetype] = {
    "definition": _a(
        "definition",
        name={"en": "Definitions and scope of {s}", "zh": "{s}的定义与口径"},
        description={
            "en": "What {s} is, its terms and variants, and its boundary with adjacent concepts; not how it is used.",
            "zh": "{s}是什么、术语与变体、与相邻概念的边界；不含具体用法。",
        },
        key_questions={
            "en": [
                "How do authoritative sources define {s}?",
                "Which terms, categories or variants of {s} must the report distinguish?",
                "What separates {s} from closely related concepts?",
            ],
            "zh": ["权威来源如何定义{s}？", "报告需要区分{s}的哪些术语、类别或变体？", "{s}与相近概念的边界在哪里？"],
        },
        method={
            "en": "Definition review of official documentation and reference works; build a term taxonomy.",
            "zh": "梳理官方文档与参考资料中的定义，建立术语分类。",
        },
        source_types={
            "en": ["official documentation", "reference works", "standards"],
            "zh": ["官方文档", "参考资料", "标准文件"],
        },
        seed_queries={
            "en": ["{s} definition", "what is {s}", "{s} terminology", "{s} types and variants"],
            "zh": ["{s} 定义", "什么是{s}", "{s} 术语", "{s} 分类 类型"],
        },
        expected_output={
            "en": "Definitions and a term taxonomy that fix the report's vocabulary.",
            "zh": "确定报告口径的定义与术语分类。",
        },
        focus={"en": "authoritative definitions and the exact wording of terms", "zh": "权威定义与术语原文表述"},
        owns={"en": "definitions and terminology of {s}", "zh": "{s}的定义与术语"},
    ),
    "mechanism": _a(
        "mechanism",
        name={"en": "How {s} works", "zh": "{s}的工作原理"},
        description={
            "en": "The mechanism of {s}: components, rules and the conditions that change its behaviour; not usage advice.",
            "zh": "{s}的机制：组成、规则以及改变其行为的条件；不含使用建议。",
        },
        key_questions={
            "en": [
                "How does {s} work step by step?",
                "Which components or rules govern the behaviour of {s}?",
                "Under which conditions does {s} behave differently?",
            ],
            "zh": ["{s}是如何一步步工作的？", "哪些组成部分或规则决定{s}的行为？", "在什么条件下{s}的行为会不同？"],
        },
        method={
            "en": "Trace the mechanism through reference documentation and specifications.",
            "zh": "依据参考文档与规范逐步还原机制。",
        },
        source_types={
            "en": ["language or product reference", "specifications", "design documents"],
            "zh": ["语言或产品参考文档", "规范", "设计文档"],
        },
        seed_queries={
            "en": ["how {s} works", "{s} execution model", "{s} specification", "{s} semantics rules"],
            "zh": ["{s} 工作原理", "{s} 执行过程", "{s} 规范", "{s} 语义 规则"],
        },
        expected_output={
            "en": "A step-by-step account of the mechanism with the governing rules.",
            "zh": "机制的分步说明及其规则。",
        },
        focus={"en": "the normative description of behaviour", "zh": "对行为的规范性描述"},
        owns={"en": "mechanism and behaviour rules of {s}", "zh": "{s}的机制与行为规则"},
        upstream=(
            Upstream(
                "definition",
                "taxonomy_definition",
                {
                    "en": "Trace the mechanism only for the variants of {s} named in the upstream taxonomy; skip re-defining terms.",
                    "zh": "只针对上游术语分类中列出的{s}变体还原机制，不再重复定义术语。",
                },
            ),
        ),
    ),
    "usage": _a(
        "usage",
        name={"en": "Usage patterns of {s} in practice", "zh": "{s}的实践用法"},
        description={
            "en": "Where and how {s} is used, recommended patterns and examples; not its internal mechanism.",
            "zh": "{s}在何处、如何使用，推荐模式与示例；不含内部机制。",
        },
        key_questions={
            "en": [
                "In which situations is {s} typically used?",
                "Which patterns or examples do the sources recommend for {s}?",
                "Which mistakes with {s} do the sources warn about?",
            ],
            "zh": ["{s}通常用于哪些场景？", "来源推荐了{s}的哪些用法或示例？", "来源提醒了使用{s}时的哪些错误？"],
        },
        method={
            "en": "Collect documented examples and recommendations; group them by situation.",
            "zh": "收集文档中的示例与建议，按场景归类。",
        },
        source_types={
            "en": ["official tutorials", "documentation examples", "community Q&A"],
            "zh": ["官方教程", "文档示例", "社区问答"],
        },
        seed_queries={
            "en": ["{s} example", "{s} usage", "when to use {s}", "{s} common mistakes"],
            "zh": ["{s} 示例", "{s} 用法", "何时使用{s}", "{s} 常见错误"],
        },
        expected_output={
            "en": "Situations, patterns and documented mistakes, each tied to sources.",
            "zh": "场景、模式与有记录的错误，均附来源。",
        },
        focus={"en": "documented examples and explicit recommendations", "zh": "有记录的示例与明确建议"},
        owns={"en": "usage patterns and examples of {s}", "zh": "{s}的用法与示例"},
        upstream=(
            Upstream(
                "definition",
                "taxonomy_definition",
                {
                    "en": "Group usage examples by the variants of {s} in the upstream taxonomy; drop examples of other concepts.",
                    "zh": "按上游术语分类中的{s}变体归类用法示例，剔除其他概念的示例。",
                },
            ),
        ),
    ),
    "limits": _a(
        "limits",
        name={"en": "Limitations, pitfalls and alternatives to {s}", "zh": "{s}的局限、陷阱与替代"},
        description={
            "en": "Documented limitations, restrictions and alternatives of {s}; not general usage.",
            "zh": "{s}有记录的局限、限制条件与替代方案；不含一般用法。",
        },
        key_questions={
            "en": [
                "Which limitations or restrictions of {s} are documented?",
                "Which evidence contradicts common assumptions about {s}?",
                "Which alternatives to {s} exist and when are they preferred?",
            ],
            "zh": [
                "{s}有哪些有记录的局限或限制？",
                "哪些证据与关于{s}的常见看法相矛盾？",
                "{s}有哪些替代方案，何时更合适？",
            ],
        },
        method={
            "en": "Search for restrictions, errors and counter-examples; seek refuting evidence deliberately.",
            "zh": "检索限制、错误与反例，主动寻找反驳证据。",
        },
        source_types={
            "en": ["reference documentation", "issue trackers", "expert analysis"],
            "zh": ["参考文档", "问题追踪", "专家分析"],
        },
        seed_queries={
            "en": ["{s} limitations", "{s} restrictions error", "{s} alternatives", "{s} pitfalls"],
            "zh": ["{s} 局限", "{s} 限制 错误", "{s} 替代方案", "{s} 陷阱"],
        },
        expected_output={
            "en": "A pitfalls and risk list with evidence, including refuting evidence.",
            "zh": "附证据的陷阱与风险清单，含反驳证据。",
        },
        focus={"en": "restrictions, error conditions and counter-evidence", "zh": "限制、错误条件与反证"},
        owns={"en": "limitations and alternatives of {s}", "zh": "{s}的局限与替代"},
    ),
    "landscape": _a(
        "landscape",
        name={"en": "Landscape and components of {s}", "zh": "{s}的构成与格局"},
        description={
            "en": "The parts, actors or sub-areas that make up {s} and how they relate; not their history.",
            "zh": "构成{s}的部分、主体或子领域及其关系；不含历史沿革。",
        },
        key_questions={
            "en": [
                "Which main components or sub-areas make up {s}?",
                "How are the components of {s} related to each other?",
                "Which components of {s} matter most, by what evidence?",
            ],
            "zh": ["{s}由哪些主要部分或子领域构成？", "这些部分之间是什么关系？", "依据什么证据，哪些部分最重要？"],
        },
        method={
            "en": "Map components from overview sources; tabulate them with their roles.",
            "zh": "依据概览类来源梳理构成，并列表说明各自角色。",
        },
        source_types={
            "en": ["overviews", "official documentation", "reference works"],
            "zh": ["概览资料", "官方文档", "参考资料"],
        },
        seed_queries={
            "en": ["{s} overview", "{s} components", "{s} modules list", "{s} structure"],
            "zh": ["{s} 概览", "{s} 组成", "{s} 模块 列表", "{s} 结构"],
        },
        expected_output={"en": "A landscape table of components with their roles.", "zh": "含各部分角色的构成要素表。"},
        focus={"en": "completeness of the component map", "zh": "构成图谱的完整性"},
        owns={"en": "components and structure of {s}", "zh": "{s}的构成与结构"},
        upstream=(
            Upstream(
                "definition",
                "taxonomy_definition",
                {
                    "en": "Map only components that fall inside the upstream definition of {s}; list borderline ones separately.",
                    "zh": "只梳理落在上游{s}定义范围内的组成部分，边界模糊者单列。",
                },
            ),
        ),
    ),
    "state": _a(
        "state",
        name={"en": "Current state of {s}", "zh": "{s}的现状"},
        description={
            "en": "What is true of {s} now, with dates; not forecasts.",
            "zh": "{s}当前的状况（附日期）；不含预测。",
        },
        key_questions={
            "en": [
                "What is the current state of {s}?",
                "What changed recently in {s}?",
                "Which data or documents describe {s} today?",
            ],
            "zh": ["{s}目前处于什么状态？", "{s}最近发生了哪些变化？", "哪些数据或文件描述了{s}的现状？"],
        },
        method={
            "en": "Collect dated statements from current documentation and recent reports.",
            "zh": "收集当前文档与近期报告中带日期的表述。",
        },
        source_types={
            "en": ["current documentation", "release notes", "recent reports"],
            "zh": ["当前文档", "版本说明", "近期报告"],
        },
        seed_queries={
            "en": ["{s} current", "{s} recent changes", "{s} new features", "{s} status"],
            "zh": ["{s} 现状", "{s} 最新变化", "{s} 新特性", "{s} 状态"],
        },
        expected_output={"en": "Dated facts describing the present state.", "zh": "描述现状的带日期事实。"},
        focus={"en": "dated, current facts", "zh": "带日期的当前事实"},
        owns={"en": "present state of {s}", "zh": "{s}的当前状态"},
        time_bound=True,
    ),
    "trends": _a(
        "trends",
        name={"en": "Trends and outlook for {s}", "zh": "{s}的趋势与展望"},
        description={
            "en": "Documented trends, their drivers and projections with premises; not present-state facts.",
            "zh": "有记录的趋势、驱动因素及带前提的预测；不含现状事实。",
        },
        key_questions={
            "en": [
                "Which trends in {s} are documented?",
                "What drives these trends?",
                "Which projections about {s} exist, and on what premises?",
            ],
            "zh": ["{s}有哪些有记录的趋势？", "这些趋势的驱动因素是什么？", "关于{s}有哪些预测，前提是什么？"],
        },
        method={
            "en": "Compare dated sources over time; separate projections from facts.",
            "zh": "比较不同时间的来源，区分预测与事实。",
        },
        source_types={
            "en": ["industry reports", "roadmaps", "expert analysis"],
            "zh": ["行业报告", "路线图", "专家分析"],
        },
        seed_queries={
            "en": ["{s} trends", "{s} future roadmap", "{s} outlook", "{s} deprecated"],
            "zh": ["{s} 趋势", "{s} 路线图", "{s} 展望", "{s} 弃用"],
        },
        expected_output={
            "en": "Trends with drivers, and projections with stated premises.",
            "zh": "附驱动因素的趋势，以及写明前提的预测。",
        },
        focus={"en": "direction of change and its premises", "zh": "变化方向及其前提"},
        owns={"en": "trends and projections for {s}", "zh": "{s}的趋势与预测"},
        time_bound=True,
        upstream=(
            Upstream(
                "state",
                "time_window",
                {
                    "en": "Measure trends from the dated baseline the upstream state findings establish; skip re-collecting present facts.",
                    "zh": "以上游现状结论确定的时间基线衡量趋势，不再重复收集现状事实。",
                },
            ),
            Upstream(
                "market",
                "time_window",
                {
                    "en": "Measure trends from the dated market baseline upstream; do not re-estimate market size.",
                    "zh": "以上游市场数据的时间基线衡量趋势，不重新估算市场规模。",
                },
            ),
        ),
    ),
    "criteria": _a(
        "criteria",
        name={"en": "Selection criteria and candidate set for {s}", "zh": "{s}的选型标准与候选范围"},
        description={
            "en": "Which candidates are in scope and which criteria matter for the stated use; not the verdict.",
            "zh": "哪些候选在范围内、哪些标准对用途重要；不做结论。",
        },
        key_questions={
            "en": [
                "What are {s}, and how do they differ?",
                "Which criteria distinguish {s}?",
                "Under which conditions is each of {s} used?",
            ],
            "zh": ["{s}分别是什么，有何区别？", "哪些标准可以区分{s}？", "{s}各自在什么条件下使用？"],
        },
        method={
            "en": "Derive criteria from documentation and decision guides; fix the candidate list.",
            "zh": "从文档与选型指南中归纳标准，确定候选清单。",
        },
        source_types={
            "en": ["official documentation", "decision guides", "expert comparisons"],
            "zh": ["官方文档", "选型指南", "专家对比"],
        },
        seed_queries={
            "en": ["{s} comparison criteria", "choosing {s}", "{s} differences", "{s} when to use which"],
            "zh": ["{s} 对比 标准", "{s} 如何选择", "{s} 区别", "{s} 适用场景"],
        },
        expected_output={
            "en": "The candidate list and the criteria for the comparison matrix.",
            "zh": "候选清单与对比矩阵的标准。",
        },
        focus={"en": "criteria that discriminate between candidates", "zh": "能区分候选的标准"},
        owns={"en": "selection criteria for {s}", "zh": "{s}的选型标准"},
    ),
    "candidate": _a(
        "candidate",
        name={"en": "{o}: capabilities and evidence", "zh": "{o}：能力与证据"},
        description={
            "en": "What {o} offers on each criterion, with documented strengths and limits; other candidates excluded.",
            "zh": "{o}在各标准上的表现、有记录的优势与局限；不含其他候选。",
        },
        key_questions={
            "en": [
                "What is {o}?",
                "How is {o} used?",
                "Which restrictions or errors apply to {o}?",
            ],
            "zh": ["{o}是什么？", "{o}如何使用？", "{o}有哪些限制或错误情形？"],
        },
        method={
            "en": "Profile the candidate against each criterion from its own documentation and independent sources.",
            "zh": "依据候选自身文档与独立来源，逐项对照标准描述。",
        },
        source_types={
            "en": ["official documentation", "benchmarks", "independent reviews"],
            "zh": ["官方文档", "基准测试", "独立评测"],
        },
        seed_queries={
            "en": ["{o}", "{o} features", "{o} limitations", "{o} performance"],
            "zh": ["{o}", "{o} 特性", "{o} 局限", "{o} 性能"],
        },
        expected_output={
            "en": "A profile of {o} per criterion for the comparison matrix.",
            "zh": "供对比矩阵使用的{o}分标准概况。",
        },
        focus={"en": "evidence per criterion for {o}", "zh": "{o}在各标准上的证据"},
        owns={"en": "profile of {o}", "zh": "{o}的概况"},
        upstream=(
            Upstream(
                "criteria",
                "entity_selection",
                {
                    "en": "Profile {o} only on the criteria fixed upstream; skip criteria the upstream findings rule out.",
                    "zh": "只按上游确定的标准描述{o}，跳过上游结论排除的标准。",
                },
            ),
        ),
    ),
    "tradeoffs": _a(
        "tradeoffs",
        name={"en": "Trade-offs and fit by scenario for {s}", "zh": "{s}的权衡与场景适配"},
        description={
            "en": "Where the candidates differ most and which fits which scenario; no new candidate profiling.",
            "zh": "候选差异最大之处、各自适合的场景；不重新描述候选。",
        },
        key_questions={
            "en": [
                "Where do {s} differ?",
                "When is each of {s} preferred?",
                "Which risks or errors come with {s}?",
            ],
            "zh": ["{s}之间有哪些差异？", "什么情况下更适合使用{s}中的哪一个？", "{s}各自伴随哪些风险或错误？"],
        },
        method={
            "en": "Cross-compare candidate evidence per scenario; record disagreements between sources.",
            "zh": "按场景交叉比较候选证据，记录来源之间的分歧。",
        },
        source_types={
            "en": ["expert comparisons", "case studies", "documentation"],
            "zh": ["专家对比", "案例", "文档"],
        },
        seed_queries={
            "en": ["{s} trade-offs", "{s} versus", "{s} which to choose", "{s} pros and cons"],
            "zh": ["{s} 权衡", "{s} 对比", "{s} 选哪个", "{s} 优缺点"],
        },
        expected_output={
            "en": "Scenario fit and risks for the comparison matrix and recommendations section.",
            "zh": "供对比矩阵与场景适配一节使用的适配结论与风险。",
        },
        focus={"en": "differences that change a decision", "zh": "会改变决策的差异"},
        owns={"en": "scenario fit and trade-offs of {s}", "zh": "{s}的场景适配与权衡"},
        upstream=(
            Upstream(
                "candidate",
                "hypothesis_definition",
                {
                    "en": "Test fit hypotheses built from the upstream candidate profiles; do not re-profile candidates.",
                    "zh": "检验由上游候选概况形成的适配假设，不重新描述候选。",
                },
            ),
        ),
    ),
    "background": _a(
        "background",
        name={"en": "Background and established facts of {s}", "zh": "{s}的背景与已确认事实"},
        description={
            "en": "Who and what is involved and the facts sources agree on; not causes.",
            "zh": "涉及的主体与事项、来源一致认可的事实；不含原因分析。",
        },
        key_questions={
            "en": [
                "Which facts about {s} are established by primary sources?",
                "Who or what is involved in {s}?",
                "Which sources document {s} first-hand?",
            ],
            "zh": ["关于{s}，哪些事实由一手来源确认？", "{s}涉及哪些主体或事项？", "哪些来源直接记录了{s}？"],
        },
        method={
            "en": "Fact-finding from primary documents; note who said what and when.",
            "zh": "从一手文件中查明事实，记录谁在何时说了什么。",
        },
        source_types={
            "en": ["primary documents", "official statements", "news reports"],
            "zh": ["一手文件", "官方声明", "新闻报道"],
        },
        seed_queries={
            "en": ["{s}", "{s} facts", "{s} official statement", "{s} documentation"],
            "zh": ["{s}", "{s} 事实", "{s} 官方说明", "{s} 文档"],
        },
        expected_output={"en": "Established facts and the parties involved.", "zh": "已确认事实与涉及主体。"},
        focus={"en": "primary, verifiable facts", "zh": "可核实的一手事实"},
        owns={"en": "established facts about {s}", "zh": "{s}的已确认事实"},
    ),
    "causes": _a(
        "causes",
        name={"en": "Causes and explanations of {s}", "zh": "{s}的原因与解释"},
        description={
            "en": "Competing explanations of {s} and the evidence for and against each; not impacts.",
            "zh": "关于{s}的竞争性解释及其正反证据；不含影响。",
        },
        key_questions={
            "en": [
                "What causes {s}?",
                "Which conditions lead to {s}?",
                "Which evidence contradicts the usual explanation of {s}?",
            ],
            "zh": ["{s}的原因是什么？", "哪些条件会导致{s}？", "哪些证据与对{s}的通常解释相矛盾？"],
        },
        method={
            "en": "Weigh explanations by supporting and refuting evidence.",
            "zh": "按支持与反驳证据权衡各种解释。",
        },
        source_types={
            "en": ["expert analysis", "primary documents", "post-mortems"],
            "zh": ["专家分析", "一手文件", "复盘报告"],
        },
        seed_queries={
            "en": ["{s} cause", "why {s}", "{s} explanation", "{s} reason"],
            "zh": ["{s} 原因", "为什么{s}", "{s} 解释", "{s} 根因"],
        },
        expected_output={
            "en": "An evidence table of explanations with support and refutation.",
            "zh": "各解释的支持/反驳证据表。",
        },
        focus={"en": "discriminating evidence between explanations", "zh": "能区分不同解释的证据"},
        owns={"en": "causes and explanations of {s}", "zh": "{s}的原因与解释"},
        upstream=(
            Upstream(
                "background",
                "hypothesis_definition",
                {
                    "en": "Form explanations only for the facts established upstream; skip re-establishing facts.",
                    "zh": "只针对上游已确认的事实提出解释，不重新核实事实。",
                },
            ),
        ),
    ),
    "impact": _a(
        "impact",
        name={"en": "Impacts and consequences of {s}", "zh": "{s}的影响与后果"},
        description={
            "en": "Who or what {s} affects and how much; not its causes.",
            "zh": "{s}影响了谁或什么、程度如何；不含原因。",
        },
        key_questions={
            "en": [
                "Who or what is affected by {s}?",
                "How large are the documented effects of {s}?",
                "Which effects of {s} are disputed?",
            ],
            "zh": ["{s}影响了谁或什么？", "{s}有记录的影响有多大？", "{s}的哪些影响存在争议？"],
        },
        method={
            "en": "Collect documented effects by affected party; note magnitude and dispute.",
            "zh": "按受影响方收集有记录的影响，注明程度与争议。",
        },
        source_types={"en": ["impact assessments", "reports", "news"], "zh": ["影响评估", "报告", "新闻"]},
        seed_queries={
            "en": ["{s} impact", "{s} effects", "{s} consequences", "{s} affected"],
            "zh": ["{s} 影响", "{s} 效果", "{s} 后果", "{s} 受影响"],
        },
        expected_output={"en": "An impact list by affected party.", "zh": "按受影响方列出的影响清单。"},
        focus={"en": "documented, attributable effects", "zh": "有记录且可归因的影响"},
        owns={"en": "impacts of {s}", "zh": "{s}的影响"},
        upstream=(
            Upstream(
                "background",
                "entity_selection",
                {
                    "en": "Assess impacts only on the parties named in the upstream facts; add others only with a source.",
                    "zh": "只评估上游事实中列出的主体所受影响，新增主体须有来源。",
                },
            ),
            Upstream(
                "chronology",
                "time_window",
                {
                    "en": "Assess impacts inside the time window the upstream chronology establishes.",
                    "zh": "在上游时间线确定的时间窗口内评估影响。",
                },
            ),
            Upstream(
                "policy_text",
                "hypothesis_definition",
                {
                    "en": "Assess the impact of the provisions identified upstream, one provision at a time.",
                    "zh": "逐条评估上游识别出的条款所产生的影响。",
                },
            ),
        ),
    ),
    "chronology": _a(
        "chronology",
        name={"en": "Chronology of {s}", "zh": "{s}的时间线"},
        description={
            "en": "Dated events in the history of {s}; not their interpretation.",
            "zh": "{s}历史上带日期的事件；不含解读。",
        },
        key_questions={
            "en": [
                "Which key events in {s} can be dated from sources?",
                "Which phases does the history of {s} fall into?",
                "Which events were turning points for {s}?",
            ],
            "zh": ["{s}有哪些可由来源确定日期的关键事件？", "{s}的历史可分为哪些阶段？", "哪些事件是{s}的转折点？"],
        },
        method={
            "en": "Reconstruct the timeline from dated sources; cross-check dates.",
            "zh": "依据带日期的来源还原时间线，交叉核对日期。",
        },
        source_types={
            "en": ["release notes", "official announcements", "historical records"],
            "zh": ["版本说明", "官方公告", "历史记录"],
        },
        seed_queries={
            "en": ["{s} history", "{s} timeline", "{s} version added", "{s} introduced in"],
            "zh": ["{s} 历史", "{s} 时间线", "{s} 版本 新增", "{s} 引入"],
        },
        expected_output={"en": "A dated event table for the timeline element.", "zh": "供时间线使用的带日期事件表。"},
        focus={"en": "exact dates and versions", "zh": "准确的日期与版本"},
        owns={"en": "dated events of {s}", "zh": "{s}的带日期事件"},
        time_bound=True,
        upstream=(
            Upstream(
                "policy_text",
                "time_window",
                {
                    "en": "Date the adoption and entry into force of the provisions identified upstream.",
                    "zh": "为上游识别出的条款确定出台与生效日期。",
                },
            ),
        ),
    ),
    "drivers": _a(
        "drivers",
        name={"en": "Drivers behind the changes in {s}", "zh": "{s}变化的驱动因素"},
        description={
            "en": "Why the turning points happened; not the dates themselves.",
            "zh": "转折点为何发生；不含日期本身。",
        },
        key_questions={
            "en": [
                "What drove the turning points in {s}?",
                "Which sources explain the changes in {s}, and do they agree?",
            ],
            "zh": ["是什么推动了{s}的转折点？", "哪些来源解释了{s}的变化，它们是否一致？"],
        },
        method={"en": "Explain each turning point from contemporaneous sources.", "zh": "依据同期来源解释每个转折点。"},
        source_types={
            "en": ["design documents", "proposals", "expert analysis"],
            "zh": ["设计文档", "提案", "专家分析"],
        },
        seed_queries={
            "en": ["{s} rationale", "{s} motivation", "{s} proposal", "why {s} changed"],
            "zh": ["{s} 动机", "{s} 提案", "{s} 设计理由", "{s} 为什么改变"],
        },
        expected_output={"en": "Explanations of the turning points with evidence.", "zh": "附证据的转折点解释。"},
        focus={"en": "stated motivations and their sources", "zh": "明确表述的动机及其来源"},
        owns={"en": "drivers of change in {s}", "zh": "{s}变化的驱动因素"},
        upstream=(
            Upstream(
                "chronology",
                "time_window",
                {
                    "en": "Explain only the turning points dated upstream; skip re-dating events.",
                    "zh": "只解释上游已确定日期的转折点，不重新考证日期。",
                },
            ),
        ),
    ),
    "market": _a(
        "market",
        name={"en": "Market size and structure of {s}", "zh": "{s}的市场规模与结构"},
        description={
            "en": "How large the market is and how it is segmented, with dated figures; not player profiles.",
            "zh": "市场多大、如何细分（数据带日期）；不含玩家概况。",
        },
        key_questions={
            "en": [
                "How large is the market for {s}, by which measure and year?",
                "How is the market for {s} segmented?",
                "Which data sources measure {s}, and do they agree?",
            ],
            "zh": ["{s}的市场规模多大（口径与年份）？", "{s}市场如何细分？", "哪些数据来源衡量{s}，是否一致？"],
        },
        method={
            "en": "Collect sized figures with definitions and dates; reconcile differences.",
            "zh": "收集带口径与日期的规模数据并核对差异。",
        },
        source_types={
            "en": ["industry reports", "statistics offices", "company filings"],
            "zh": ["行业报告", "统计机构", "公司披露"],
        },
        seed_queries={
            "en": ["{s} market size", "{s} market share", "{s} revenue", "{s} segments"],
            "zh": ["{s} 市场规模", "{s} 市场份额", "{s} 营收", "{s} 细分市场"],
        },
        expected_output={"en": "A key-figures table with dates and sources.", "zh": "带日期与来源的关键数据表。"},
        focus={"en": "figures with their definitions and dates", "zh": "带口径与日期的数据"},
        owns={"en": "market size of {s}", "zh": "{s}的市场规模"},
        time_bound=True,
        upstream=(
            Upstream(
                "definition",
                "taxonomy_definition",
                {
                    "en": "Size only the market boundary defined upstream; flag figures that use another boundary.",
                    "zh": "只统计上游界定的市场范围，口径不同的数据单独标注。",
                },
            ),
        ),
    ),
    "players": _a(
        "players",
        name={"en": "Players and competition in {s}", "zh": "{s}的主要玩家与竞争"},
        description={
            "en": "Who the main players are and how they compete; not the market's size.",
            "zh": "主要玩家及竞争方式；不含市场规模。",
        },
        key_questions={
            "en": [
                "Who are the main players in {s}?",
                "How do the players in {s} differ in offering and position?",
                "How has competition in {s} changed recently?",
            ],
            "zh": ["{s}的主要玩家有哪些？", "各玩家在产品与定位上有何差异？", "{s}的竞争格局最近如何变化？"],
        },
        method={
            "en": "Profile players from filings and official pages; tabulate them.",
            "zh": "依据公司披露与官网描述玩家并列表。",
        },
        source_types={
            "en": ["company disclosures", "industry reports", "news"],
            "zh": ["公司披露", "行业报告", "新闻"],
        },
        seed_queries={
            "en": ["{s} companies", "{s} competitors", "{s} leading vendors", "{s} competitive landscape"],
            "zh": ["{s} 公司", "{s} 竞争对手", "{s} 头部厂商", "{s} 竞争格局"],
        },
        expected_output={"en": "A player comparison table.", "zh": "玩家对比表。"},
        focus={"en": "comparable facts per player", "zh": "各玩家可比的事实"},
        owns={"en": "players of {s}", "zh": "{s}的玩家"},
        time_bound=True,
        upstream=(
            Upstream(
                "definition",
                "entity_selection",
                {
                    "en": "Profile only players inside the market boundary defined upstream; list excluded ones.",
                    "zh": "只描述上游界定范围内的玩家，排除者单列。",
                },
            ),
        ),
    ),
    "policy_text": _a(
        "policy_text",
        name={"en": "Content and legal basis of {s}", "zh": "{s}的内容与法律依据"},
        description={
            "en": "What {s} requires, issued by whom, under which authority; not its effects.",
            "zh": "{s}规定了什么、由谁依据何种权限发布；不含影响。",
        },
        key_questions={
            "en": [
                "What does {s} require, provision by provision?",
                "Which authority issued {s} and on what legal basis?",
                "Since when does {s} apply, and to whom?",
            ],
            "zh": ["{s}逐条规定了什么？", "{s}由哪个机构依据什么法律依据发布？", "{s}自何时起适用，适用于谁？"],
        },
        method={
            "en": "Read the official text; summarise provisions with citations.",
            "zh": "阅读官方文本，逐条摘要并注明出处。",
        },
        source_types={
            "en": ["official gazettes", "regulator announcements", "legal databases"],
            "zh": ["官方公报", "监管公告", "法律数据库"],
        },
        seed_queries={
            "en": ["{s} full text", "{s} provisions", "{s} legal basis", "{s} effective date"],
            "zh": ["{s} 全文", "{s} 条款", "{s} 法律依据", "{s} 施行日期"],
        },
        expected_output={"en": "A provision summary table with sources.", "zh": "附出处的条款要点表。"},
        focus={"en": "the exact wording of provisions", "zh": "条款原文"},
        owns={"en": "provisions of {s}", "zh": "{s}的条款"},
        time_bound=True,
    ),
    "actors": _a(
        "actors",
        name={"en": "Stakeholders and implementation of {s}", "zh": "{s}的相关主体与执行"},
        description={
            "en": "Who implements, enforces and is bound by {s}; not its text.",
            "zh": "谁执行、监督、受{s}约束；不含条文本身。",
        },
        key_questions={
            "en": [
                "Which bodies implement and enforce {s}?",
                "Which parties are bound by {s}?",
                "How is compliance with {s} checked?",
            ],
            "zh": ["哪些机构负责执行与监督{s}？", "哪些主体受{s}约束？", "如何检查对{s}的遵守？"],
        },
        method={
            "en": "Identify actors from the official text and implementation notices.",
            "zh": "依据官方文本与实施通知识别相关主体。",
        },
        source_types={
            "en": ["implementation notices", "regulator guidance", "news"],
            "zh": ["实施通知", "监管指引", "新闻"],
        },
        seed_queries={
            "en": ["{s} enforcement", "{s} compliance", "{s} who must comply", "{s} implementation"],
            "zh": ["{s} 执法", "{s} 合规", "{s} 适用对象", "{s} 实施细则"],
        },
        expected_output={"en": "A stakeholder list with roles.", "zh": "附角色的相关主体清单。"},
        focus={"en": "named bodies and their duties", "zh": "具名机构及其职责"},
        owns={"en": "stakeholders of {s}", "zh": "{s}的相关主体"},
        time_bound=True,
        upstream=(
            Upstream(
                "policy_text",
                "entity_selection",
                {
                    "en": "Identify the bodies named in the upstream provisions; skip provisions that name none.",
                    "zh": "识别上游条款中点名的机构，跳过未点名主体的条款。",
                },
            ),
        ),
    ),
}
