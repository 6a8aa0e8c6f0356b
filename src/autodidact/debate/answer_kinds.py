"""What kind of answer a person gave, so it moves the session the right way.

Why: an answer is more than "substantial or not". "More juniors were hired, so each senior mentors
more people" offers a competing explanation. It must become an obstacle to examine, not the reading
of a term. "Because they overhear the seniors" is a mechanism, a premise to test. "I'm not sure" is
a hedge and never a premise. The kinds are read by rules over both languages (docs/debate.md,
"Reading answers"), and each kind decides the progress signal it carries, whatever the question was.
Answers no rule recognises go to a small model learned from labelled answers (answer_model.py).
"""

from __future__ import annotations

import re
from typing import Literal

from autodidact.debate.answer_model import shipped_model

AnswerKind = Literal[
    "hedge", "correction", "choice", "confounder", "mechanism", "test", "evidence", "example", "scope",
    "definition", "worry", "other",
]  # fmt: skip

# A kind decides its signal whatever the question was (a confounder is an alternative even when the
# question asked for a reading). A choice among offered options carries the question type's own
# primary signal; kinds missing here keep the question type's cue-based signals.
KIND_SIGNAL: dict[str, str] = {
    "confounder": "ALTERNATIVE_ADDED",
    # what the person counted or measured backs a premise; it is never a test they propose (a trial's
    # "we measured 12 vs 7" was filed as the change condition)
    "evidence": "PREMISE_SURFACED",
    "mechanism": "PREMISE_SURFACED",
    # "My worry is the weekend cars are always booked": what the person fears the idea or plan breaks is
    # a premise to check, never a sharper statement of it nor the measure of success (a trial's worry
    # became the plan's measure)
    "worry": "PREMISE_SURFACED",
    "test": "DISCRIMINATION_ADDED",
    "definition": "QUESTION_SHARPENED",
    "scope": "QUESTION_SHARPENED",
    "correction": "QUESTION_SHARPENED",
}

# Ordered: the first kind whose cues match wins. Cues are discourse markers a listener hears, in
# both languages, not topic words. A hedge wins over all; a correction or a restated meaning
# ("Safer meaning …", 「我说的质量下降，主要是…」) is read before the numbers or examples inside it.
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile("|".join(parts), re.I))
    for kind, parts in (
        ("choice", (r"\bleast sure (?:of|about)\b", r"(?:最|真正|其实)没(?:有)?把握的是")),  # names the weakest premise
        ("hedge", (
            r"^(?:hmm+[.,!]?\s*|well[.,]\s*)?(?:i'?m |i am )?not (?:really |totally |entirely |quite )?sure\b",
            r"\bi (?:really )?don'?t (?:really )?know\b", r"\bno idea\b", r"\bhard to say\b",
            r"\bhaven'?t thought\b", r"\bnot certain\b", r"\bcan'?t (?:really )?say\b", r"\bbeats me\b",
            r"^(?:dunno|no clue|maybe\?|who knows)", r"^i'?m not sure\b",
            # 「我不知道」, not 「你根本不知道对方…」: the person's own uncertainty
            r"(?:^|我|也|还)(?:不知道|不确定|说不好|说不准|没想过|不清楚|没把握|拿不准|不敢说)", "不好说",
            # nothing to count yet: 「还没搬，没法计数」, "we haven't moved, so I can't count it yet" (a trial's
            # decline was recorded as a test)
            r"没(?:法|办法)(?:计数|数|统计|测|量|比较?|知道|判断|回答)",
            r"\b(?:can'?t|cannot|no way to) (?:count|measure|tell|know|test|compare) "
            r"(?:it |that |this |anything )?yet\b",
        )),
        ("correction", (
            # a bare "No." corrects nothing: asked "does anything change your test?", it says nothing changes
            # (a trial's was recorded as a sharper statement of the idea)
            r"^(?:no|not quite|actually|wait|hold on)[,，.!]\s*\S", r"\bthat'?s not what i (?:meant|said)\b",
            r"\bi didn'?t mean\b", r"\bi'?m not saying\b", r"\bwhat i'?m (?:saying|getting at) is\b",
            r"\byou(?:'ve| have)? misunderstood\b", r"^不是[，,。]", "我不是这个意思", "我说的不是", "其实我是说",
            "我不是说", r"^不是要", "你误会了", "我的意思是",
            r"\bwhat i (?:really )?(?:want to know|meant?|am asking|'m asking) is\b",
            "我真正想问的是", "我想问的其实是",
            # pointing back at an answer already given is a correction of how it was heard
            r"\bi (?:already|just) (?:said|told you|answered)\b", r"^i told you\b", r"^as i said\b",
            r"我(?:刚才|前面|之前|已经|上一句)(?:已经)?(?:说|讲|答)(?:了|过)", "你漏了", "你理解错",
            r"\bisn'?t part of (?:the|my)\b", r"\byou(?:'ve| have)? got (?:the|it|my) \w*\s?wrong\b",
            # how an answer was filed: "The Tuesday story was an example, not a premise", 「那是例子，不是前提」
            r"\b(?:was|is) (?:just |only )?an? (?:example|premise|rival|test|definition|mechanism|guess)\b,? "
            r"not an? (?:example|premise|rival|test|definition|mechanism|prediction)\b",
            r"(?:是|只是)(?:个|一个)?(?:例子|前提|竞争解释|检验|猜测)[，,]\s*(?:不是|而不是)(?:个|一个)?(?:例子|前提|竞争解释|检验|预测)",
            # about the partner's own examples or options, not a rival in the world: 「这两个例子跟绿萝没关系」
            r"\b(?:your|those|these|the two) (?:examples?|cases|options)\b.{0,40}\b(?:don'?t|do not|doesn'?t|aren'?t|"
            r"isn'?t|nothing|irrelevant|fit)\b",
            r"(?:这|那)(?:两|几)?个?例子.{0,16}(?:没关系|不相关|不对|不适用|不沾边|对不上)",
            r"你(?:举|给)的(?:例子|选项)",
        )),
        ("choice", (
            r"\bleast sure (?:of|about)\b", r"\bthe (?:first|second|third|last) (?:one|premise|reading|option)\b",
            r"^(?:the )?(?:first|second|third|last)(?: one)?[.!]?$", r"\bnumber [123]\b",
            # "Probably the second.": a pick said with how sure the person is
            r"^(?:probably|maybe|perhaps|i'?d say|i guess|mostly|definitely|honestly|hmm+)[,.]?\s+(?:the )?"
            r"(?:first|second|third|last)(?: one| premise)?[.!]?$", r"\boption [abc123]\b",
            r"第[一二三123①②③]条", r"^第[一二三123][个种条项]", r"选[一二三ABCabc]\b",
            r"(?:最|真正|其实)没(?:有)?把握的是",
            r"^(?:option\s+)?[abc](?:\s*[.,:)]|\s*$)", r"^选?\s*[ABCabc](?:吧|啊|呀|[。，,.\s]|$)", r"更接近\s*[ABC]",
        )),
        ("definition", (
            # the goal that decides a plan: "The goal is saving money", 「目标是省钱」 (a trial's was evidence)
            r"^(?:the |my |our )?(?:main |real |whole )?(?:goal|aim|purpose) (?:is|was)\b",
            r"^(?:我们?的)?(?:目标|目的)(?:就|主要)?是",
            r"^[\w-]+(?: [\w-]+)? (?:as in|meaning|means)\b", r"^by [\w\s-]{1,30}? i mean\b",
            r"^我说的[^，,。是]{1,10}[，,]?(?:主要)?(?:是|就是|指)", r"^所谓",
            r"^[^，,。]{1,8}(?<!不一定)(?<!未必)(?<!不)就是(?!说)",
        )),
        ("test", (
            r"\bif\b.+\b(?:i would|i'd|we would|would (?:drop|revise|change|give up))\b",
            # the verdict first, its condition after: "I'd conclude the plan failed if more than 1 …"
            r"\b(?:i'?d|i would|we'?d|i will|i'?ll) (?:conclude|call|consider|say|count|take)\b.{0,60}"
            r"\b(?:failed|fails|wrong|false|worked|works|holds?|a failure|a success)\b.{0,20}\bif\b",
            r"\b(?:it|the plan|the claim|the idea) (?:fails|failed|holds|works) if\b",
            r"\bwe could (?:measure|compare|track)\b", r"\b(?:measure|compare|track|test)\b.+\b(?:and|to see)\b",
            r"\b(?:to (?:check|test|verify) (?:it|this|that)|the way to (?:check|tell|test))\b",
            r"\bwould (?:change|convince|prove|show)\b.+\b(?:mind|me|wrong)\b", r"\bchange my mind\b",
            r"\bwhat would (?:show|prove|tell)\b", "改变看法", "改变主意", "说明我错了",
            r"(?:如果|要是|假如|假设|若是?|万一).+(?:我就|我会|就说明|就放弃|就修改|就不再)",
            r"可以(?:测量|对比|记录|统计)", r"要(?:验证|检验)",
            # a trial with its length, the way people test a decision: 「我想先这样试：…坚持一个月」,
            # "I'll try it for two weeks and see"
            r"先这样试|先试(?:试|一试|一下|[一两三四五六七八九十\d]+(?:个)?(?:周|月|星期|次))",
            # a condition and what it would show about the idea: 「如果四周平均扔掉的不到百分之十五，那就是我
            # 夸大了」「如果扔的明显变少，说明是买太多」, "if I finish 3 of 4 weeks, paper isn't special"
            r"(?:如果|要是|假如|若是?).{2,60}?[，,]\s*.{0,12}?(?:说明|证明|意味着|就是我|我就|就承认|算我|就算|就改|就放弃)",
            r"(?:应该|应当)(?:会)?(?:降|升|减|增|少|多|低|高)到",
            # an expectation against a baseline: 「头三个月的月流水应该比商场店同期高一成以上」
            r"(?:应该|应当|会)比.{1,20}?(?:高|低|多|少|快|慢|好|差)(?:出)?(?:[一二三四五六七八九十两\d]+(?:成|%|倍)|不少|很多)",
            # a condition with its threshold and its period runs long ("If the Thursday drop isn't bigger by
            # at least a quarter tone on average over ten weeks, I'm wrong" was lost at 80 characters)
            r"\bif\b.{3,140}\b(?:that means|it means|that shows|it shows|proves|i was wrong|i'?m wrong|isn'?t special|"
            r"then it'?s|it'?s not the)\b",
            r"\b(?:should|would) (?:drop|fall|rise|go up|go down|halve|double)\b",
            r"\bif\b.{3,120}\bi(?:'ll| will)? (?:keep|drop|revise|accept|reject|call)\b",
            # a condition that says which of two causes it was: "if begging comes back then, it was him, not the
            # schedule", 「如果他回来以后又开始要吃的，那就是他，不是喂食时间」 (a trial's was filed as a rival)
            r"\bif\b.{3,120}?[,;]\s*(?:then\s+)?(?:it was|it'?s|that'?s|that was) [^,.;]{1,30},? (?:and )?"
            r"not (?:the )?\w",
            r"(?:如果|要是|假如|若是?).{2,60}?[，,]\s*(?:那)?(?:就)?(?:是|说明是)[^，,。]{1,16}?[，,]\s*(?:而)?不是",
            r"\bif\b.{3,120}\b(?:the claim|the idea|it) (?:holds|stands|fails)\b",
            # "If next winter I light the coop and they still drop to 3 a day, the light idea is wrong" (its
            # count made a trial's test evidence)
            r"\bif\b.{3,140}\b(?:idea|claim|theory|hypothesis|explanation|guess|hunch|proposition) (?:is|was) "
            r"(?:wrong|false|dead|out)\b",
            r"\bif\b.{3,140}\b(?:is not|isn'?t|was not|wasn'?t) (?:the )?(?:main |real |only )?"
            r"(?:cause|reason|culprit)\b",
            # a design that assigns the cause by chance or in turns: 「隔周交替」, "flip a coin per episode"
            r"\b(?:flip a coin|at random|randomi[sz]e|alternate (?:weeks|days|episodes))\b",
            r"(?:抛硬币|随机(?:分|选|安排)|隔周交替|单双周)",
            r"\b(?:i'?ll|i will|i'?d|let me|i want to|i plan to|i'?m going to) (?:first )?(?:try|trial|pilot)\b"
            r".{0,60}\b(?:for (?:a|one|two|three|four|six|\d+) (?:weeks?|months?|days?)|and see)\b",
            r"(?:比一比|对比一下|比较一下)",
            # a procedure proposed without "if" or "test": something recorded or counted from now on and
            # set against something else (「下个月每周一不开早会，记录上午提交的代码量，再跟这个月比」,
            # "I'll log my commits for a month and compare them with last month"). A count already made
            # is evidence: 「我记了」 and "I logged" are in the past and do not match.
            r"(?:记录|记下|记一下|统计|数一数|数一下|量一下|测一下|跟踪|追踪)(?!了|过).{0,40}?"
            r"(?:(?:跟|和|与|同).{1,16}?(?:比|对比|比较|对照)|对比|对照|相比|[，,；;：:]\s*(?:再|然后|并)?比较)",
            r"\b(?:record|log|count|track|measure|note down|time|tally)\b(?!ed).{0,60}?"
            r"\b(?:and|then)\s+(?:compare|set (?:it|them) against|put (?:it|them) next to)\b",
            # an expectation stated as one: "I'd expect them to give again within 90 days more often"
            r"\b(?:i'?d|i would|we'?d) (?:expect|predict|bet)\b.{3,100}\b(?:more|less|fewer|higher|lower|faster|"
            r"slower|again|within|to (?:win|beat|lose|drop|rise))\b",
            r"\bmy prediction (?:is|was)\b|\bi predict\b|我(?:预期|预计|预测)",
            # a threshold with what it decides, without "if": "under 10 I'd keep it", 「低10%以上就保留」
            r"\b(?:above|below|under|over|at least|less than|more than)\s+\d[^.;]{0,40}\b(?:i'?d|i would|we'?d)\s+"
            r"(?:keep|drop|revise|call it)\b",
            r"\d+\s*%?\s*(?:以上|以下|以内)[^。；]{0,16}(?:就|我就|则)?(?:保留|放弃|修改|算|不折腾|认了)",
        )),
        ("worry", (
            r"\b(?:my|the|our) (?:main |biggest |only |one )?(?:worry|concern|fear) (?:is|would be|was)\b",
            r"\bi'?m (?:a bit |a little |quite |really |also )?(?:worried|concerned|afraid) (?:that|about)\b",
            r"\bwhat (?:worries|scares) me\b", r"^(?:我|我们)?(?:最|比较|有点|还是)?(?:担心|害怕|怕的是|顾虑)",
            r"我(?:最|比较|有点|还是)?担心", r"(?:顾虑|担忧)(?:是|在于)",
        )),
        ("confounder", (
            r"\b(?:more|fewer|less)\b.+\b(?:were|was|got)\b.+\b(?:hired|added|assigned|moved)\b",
            r"\b(?:at the same time|in the same period|also changed|coincided|the real reason|instead it'?s)\b",
            r"\bit could (?:also )?be\b", r"\bmight (?:also )?be due to\b", r"^could (?:just |also )?be\b",
            r"\bcould (?:just |also )?be (?:about|due to|because of|caused by)\b",
            r"\balso (?:went (?:up|down)|changed|rose|fell|dropped|increased|decreased)\b",
            r"\bbecause of (?:the|a) (?:new|different)\b", r"\bso each\b", r"\bnot (?:only|just|all) (?:because|due)\b",
            "同一时期", r"同时(?:也)?(?:变|换|招)", r"同一个?(?:月|周|时期|阶段|段时间)",
            "真正的原因", "其实是因为", "也可能是因为", "招了更多",
            r"\bmight (?:also|just) be\b", r"\bcould be (?:part of it|the real)\b", r"\bto be fair\b",
            r"\bnothing to do with\b", r"\bmaybe it'?s (?:really|just|actually)\b",
            r"也不全(?:是|怪|因为)", r"(?:可能|也)(?:跟|和|与).{0,20}有关", r"不全是.{0,8}(?:原因|的错)", r"那段时间也",
            r"也(?:有)?可能是", r"(?:跟|和).{0,12}(?:其实)?没(?:有)?关系", "另一个原因",
            # something else that explains it, a change at the same time, or a difference that was
            # there before the cause ("were already", 「本来就」): rivals people offer without a label
            r"\b(?:would|could|might|may) (?:also )?explain\b", r"\b(?:explains?|accounts? for) (?:it|this|that)\b",
            r"^(?!because|since).*\b(?:were|was|are|is) already\b", r"\bto begin with\b", r"\bin the first place\b",
            r"^(?:but |and )?(?:we|they|i|he|she|the team|our team) also\b",
            r"\balso (?:got|switched|moved|hired|started|stopped|introduced|added|lost|gained|launched|cut)\b",
            # something else under way at the time: "his birds were also moulting then", 「那时它们也在换羽」
            r"\b(?:was|were|had been) also \w+ing\b", r"(?:那时|当时|那段时间)(?:[^，。]{0,6})?也在",
            r"\baround (?:then|that time|the same time)\b", r"\bseasonal\b",
            r"\b(?:always|usually) (?:dips?|drops?|rises?|slows?|picks? up|goes (?:up|down))\b",
            r"^(?!因为|由于).*(?:本来就|原本就|本身就|一直就)", r"(?:还|也)(?:换了|换成|改了|招了|搬了|加了|上了|开始)",
            r"(?:正好|刚好|恰好)(?:赶上|碰上|遇上|是)", r"那段时间(?:正好|刚好|还)", "淡季", "旺季",
            r"\b(?:could|might|may) (?:also |just )?come from\b", r"也?可能(?:来自|出在|源于)",
            # another change said to fall in the same time, or another cause put against the named one:
            # 「我妈也是5月底来我们家住的」, 「所以可能是我妈，不是超市」, "maybe it's the Kindle, not the train"
            r"也是.{0,8}(?:月|时候|那周|那年|同时).{0,12}(?:来|搬|开始|换|买|装)", r"可能是.{1,12}[，,]\s*(?:而)?不是",
            r"\b(?:maybe|perhaps|probably|could be|might be) (?:it'?s )?.{1,30}, not (?:the )?\w",
            # another way to the same goal, offered against a plan: "another option is a weekend class",
            # 「另一个办法是先报周末英语班」 (a trial was told twice no other way had been compared)
            r"\b(?:another|a cheaper|a smaller|a simpler) (?:option|way|route|alternative) (?:is|would be)\b",
            r"\balternatively\b", r"\bor instead\b",
            r"另一个(?:办法|选择|方案)|另一种(?:做法|办法|方案)|还有一个(?:选择|办法)|退一步的办法|替代(?:做法|方案)是",
            # the observation explained away: "it may just have been novelty", 「那可能只是因为新鲜」
            r"(?:可能|也许|或许|说不定)(?:只是|仅仅是|纯粹是)(?:因为|图|出于)",
            r"\b(?:might|may|could) (?:just|only|simply) (?:be|have been) (?:because|due to|novelty)\b",
            r"\bmaybe (?:it|he|she|they) (?:was|were|is|are) (?:just|only)\b",
            # the named cause denied, or another thing said to be doing it: "maybe it's not the pan at all,
            # maybe I just want fewer things", "The room could be doing it", 「也许根本不是锅的问题，而是…」,
            # 「可能是教堂的暖气在起作用」 (a trial filed both as premises and said no rival was named)
            r"\bit'?s not (?:really |even )?(?:about )?(?:the |my |our |their )?[\w-]+(?: [\w-]+){0,2} at all\b",
            r"\b(?:could|might|may) (?:well |also |just |really )?(?:be|have been) (?:doing|behind|driving|causing) "
            r"(?:it|this|that|all of it|the (?:drop|rise|change|difference|effect|pattern))\b",
            r"\b(?:could|might|may) (?:well |also |just |really )?be (?:the|a) (?:real |actual |main |whole )?"
            r"(?:cause|reason|culprit|explanation)\b",
            r"根本(?:就)?不是.{1,12}?(?:的(?:原因|问题|事|功劳)|[，,]\s*(?:而是|是|可能是|也许是))",
            # another way said to do better: 「搬家可能比卖车更省」, "renting might be cheaper than buying", and
            # 「真正的问题不是车，而是…」 (a trial's was read as a correction of the key term)
            r"真正的(?:问题|原因)(?:其实|可能|也许)?不是", r"\bthe real (?:problem|issue|cause) (?:is|was|might be)\b",
            r"(?:可能|也许|或许|说不定)(?:会)?比.{1,12}?(?:更|还)(?:省|好|便宜|划算|有效|快|合适|管用)",
            r"\b(?:might|could|would|may) (?:well |even )?(?:be|work out|come out) (?:even |much |a lot )?"
            r"(?:cheaper|better|easier|faster|simpler|more effective) than\b",
            r"(?:可能|也许|或许|说不定)(?:就)?是.{1,16}?(?:在起作用|在作怪|造成的|导致的|引起的|的(?:原因|缘故|功劳))",
        )),
        ("mechanism", (
            r"^(?:because|since|as)\b", r"\bbecause\b", r"\bwhich means\b", r"\bthat'?s why\b", r"\bso they\b",
            r"\bby \w+ing\b", r"\b(?:and then|which leads to|ends? up|so (?:you|we|people|i))\b",
            r"\b(?:let|lets) (?:each|every|them|you|us)\b", r"\bthe way it works\b",
            r"\bthe reason is\b", r"\bmy guess is\b", "原因是", "机制是",
            "^因为", "是因为", "所以", "通过", "这样一来", "以至于", "就得", "就会", "于是", "结果就", "才能", "顺手",
        )),
        ("evidence", (
            r"\b\d+(?:\.\d+)?\s*(?:%|percent|times|hours|days|weeks|people|cases)",
            # a weight, a distance or a rate: "6 kg the first year", "9 a day in autumn" (a trial's counts were
            # read as a sharper statement)
            r"\b\d+(?:\.\d+)?\s*(?:kg|kilos?|grams?|lbs?|pounds|km|miles)\b",
            r"\b\d+(?:\.\d+)?\s+(?:a|per|each) (?:day|week|month|year|night|session)\b",
            r"\b(?:data|survey|study|studies)\b",
            r"\b(?:measured|statistics|metrics|numbers show|research|a report|paper)\b",
            r"\b(?:i|we) (?:actually )?(?:counted|measured|tracked|logged|surveyed)\b", r"\bversus\b.*\d",
            r"\bfrom (?:about |around )?\d[\d,.]* to \d", r"\b(?:logged|counted|recorded|measured) (?:only )?\d",
            r"\bi looked at\b.*\d", r"我(?:记|数|统计|量)了",
            # a count kept as a habit: "We count mis-picks from customer returns" (a trial asked again
            # whether they could name a time they counted)
            r"\b(?:i|we) (?:already |always |usually |routinely |still )?"
            r"(?:count|measure|track|log|record|tally|weigh|write down|note down)\b"
            r"(?!\s+(?:it|them|this|that)\s+(?:and|then)\b)",
            r"我们?(?:一直|平时|每天|每周|每月|本来就)(?:都|就)?(?:在)?(?:记|数|统计|记录)",
            r"从\s*\d+.{0,4}(?:到|变成)\s*\d",
            r"\bkept (?:a )?(?:log|record|track|diary|tally|count|notes?|spreadsheet)\b",
            r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+) (?:out )?of (?:the |every )?"
            r"(?:\w+ )?(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\b",
            r"\d+\s*(?:%|个|次|小时|天|周|人|起)", "数据", "调查", "统计", "研究", "报道",
            r"[一二三四五六七八九十两\d]+成",
            r"从.{1,12}(?:涨|降|增加|减少|上升|下降)到",
        )),
        ("example", (
            r"\bfor example\b", r"\bfor instance\b", r"\bonce\b", r"\bi (?:saw|noticed|remember|observed)\b",
            r"\bin my (?:team|job|case|experience)\b",
            r"\blast (?:week|month|year|spring|summer|autumn|fall|winter|monday|tuesday|wednesday|thursday|friday|"
            r"saturday|sunday|time)\b",
            r"\b(?:a|my) (?:friend|colleague|neighbou?r|cousin)'?s?\b", r"\btake (?:me|my|our)\b",
            "比如", "例如", "有一次", "我见过", "我注意到", "在我们团队", "上个月", "去年", "就拿", "我自己", "我朋友",
            "有个朋友", "我们公司", "我同事", "上周", "那次", r"我(?:老公|老婆|妈|爸|女儿|儿子|孩子)",
        )),
        ("scope", (
            r"^only\b", r"\bonly (?:for|in|when|during)\b", r"\bnot all\b", r"\bnot every\b",
            r"\bjust (?:for|in|the)\b",
            r"\bin the first\b", r"\bspecifically\b", r"\bthat'?s (?:only )?for\b", r"\bdifferent story\b",
            r"\bi'?m talking about\b", r"\bonly (?:holds|applies|works|counts)\b", r"\breally just\b",
            r"\b(?:i'?d|let me|i (?:want|would like) to|i'?ll) narrow\b", r"\bnarrow (?:it|this) (?:down|to)\b",
            r"\bnot the whole\b", r"\bpeople like me\b", r"\b(?:is|are) only about\b",
            r"只(?:在|针对|限于|说|指)", "不是所有", "仅限", "特指", "主要指", r"以内", r"^我说的是在", "主要说的是",
            r"对[^，。]{1,8}来说", "所有人", r"^(?:只是|仅仅)",
        )),
        ("definition", (
            r"\bi mean\b", r"\bmeans\b", r"\brefers to\b", r"\bis defined as\b", r"\bas in\b", "我指的是",
            "我说的是", "意思是", "指的是", "定义", r"(?<!不一定)(?<!未必)(?<!不)就是",
        )),
    )
)  # fmt: skip


_EVIDENCE = next(pattern for kind, pattern in _RULES if kind == "evidence")


# How an answer opens says what the person is doing, whatever follows: "Last spring a change broke
# the login page, because …" is an example that contains a reason; "Just the 14, morning rush. I have
# no idea about other routes" narrows the claim before it hedges about the rest.
_LEADS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.I))
    for kind, pattern in (
        ("hedge", r"^(?:maybe|perhaps|dunno|no idea|not sure)\?"),
        # a premise picked first, the doubt about it after: "The second one, I'm not sure her club is
        # typical", 「第二条，我不确定…」 answer "which are you least sure of?" — not a hedge
        ("choice", r"^(?:the )?(?:first|second|third|last) (?:one|premise)\b|^(?:premise |number )?[123][,.]\s|"
                   r"^第[一二三123][条个项]|^[①②③]"),
        ("example", r"^(?:last|this past|one) (?:week|month|year|spring|summer|autumn|fall|winter|monday|tuesday|"
                    r"wednesday|thursday|friday|saturday|sunday|time)\b|^(?:for example|for instance|once)\b|"
                    r"^(?:比如|例如|有一次|上周|上个月|去年|就拿)"),
        ("scope", r"^(?:just|only|really just|not every|not all)\b|^(?:只|仅|主要是)|^我只(?:说|是说|指|针对|讲)"),
        ("confounder", r"^(?:不过)?也(?:有)?可能(?:是|跟)"),
        # 「我最怕孩子住校以后不吃早饭」 opens with the worry, whatever condition follows it
        ("worry", r"^(?:my|the|our) (?:main |biggest |only |one )?(?:worry|concern|fear) (?:is|would be|was)\b|"
                  r"^i'?m (?:a bit |a little |quite |really |also )?(?:worried|concerned|afraid) (?:that|about)\b|"
                  r"^(?:我|我们)?(?:最|比较|有点|还是)?(?:担心|害怕|怕的是|怕)"),
    )
)  # fmt: skip


# What a person calls their own answer before a colon ("A confounder to consider: …", 「证据：…」,
# "I'd narrow it: …"), or a name for a kind they use anywhere (「混杂因素」, "another factor"). People
# label their answers; a fresh-eyes trial's labelled confounders were read as choices and premises.
_LABELS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern, re.I))
    for kind, pattern in (
        ("correction", r"\b(?:correction|you misread|you misunderstood|that'?s not what i)\b|更正|纠正|误解|理解错"),
        ("confounder", r"\b(?:confounder|confound|competing explanation|alternative explanation|rival(?: explanation)?|"
                       r"competing view|"
                       r"another (?:factor|cause|explanation)|(?:a )?(?:second|other) (?:factor|cause))\b|"
                       r"another possibility|other possibility|a third possibility|"
                       r"混杂|竞争解释|另一个原因|其他因素|另一个因素|另一种解释|别的解释|其他解释|另一个?可能|另一种可能|第三种可能|还有一种可能"),
        ("mechanism", r"\bmechanism\b|机制"),
        ("test", r"\btest\b|\bpredictions?\b|\btrial\b|检验|测试|验证办法|预测|试行"),
        ("evidence", r"\b(?:evidence|data)\b|证据|数据"),
        ("example", r"\b(?:example|for instance)\b|例子|举例|比如"),
        ("scope", r"\b(?:narrow|scope)\b|缩小|范围"),
    )
)  # fmt: skip
_LABEL_END = re.compile(r"[:：]")


# Naming a rival to say it is ruled out ("the coin flip is exactly what rules out my task-choice
# rival", 「这样就排除了那个竞争解释」) offers no rival; a trial's test was filed as one.
_RULES_OUT = re.compile(
    r"\brul(?:es|ed|ing)? out\b|\bexclud(?:es|ed|ing)\b|\btells? (?:them|the two) apart\b|排除", re.I
)
# "Nothing changes": the answer to "does this change your test?" that changes nothing.
_NO_CHANGE = re.compile(
    r"^(?:no changes?(?: needed| here)?|nothing changes|nothing to change|it changes nothing|"
    r"no,? (?:it )?(?:does ?n[o']t|won'?t) change (?:it|anything)|"
    # "No, the test stays.", "The test stands as it is" (a trial's was a sharper statement of the idea)
    r"(?:no,? )?(?:the|my) (?:test|prediction) (?:stays|stands|remains)(?: as (?:it is|is))?|"
    r"没有变化|没变化|没什么变化|不变|不用改|不改了?|没有要改的|(?:检验|预测)(?:保持)?不变|保持不变)\s*(?:[,，.。!！;；]\s*|$)",
    re.I,
)
# "I mean:" before a clause, and the verbs by which one thing brings another about in it.
_I_MEAN = re.compile(r"(?:^|[.!?。！？]\s*)(?:i mean|what i mean is|我的意思是|我是说)\s*[:：]\s*", re.I)
_CAUSING = re.compile(
    r"\b(?:switch(?:es|ed)?|turn(?:s|ed)?|shut(?:s)?) (?:\w+ ){0,2}(?:off|on|down)\b|\b(?:would|will|could|should) "
    r"(?:make|cause|trigger|let|keep|stop)\b|\bmakes? (?:them|it|him|her|us|people|the|their|our)\b|\btriggers?\b|"
    r"\bcauses?\b|\bleads? to\b|导致|使得|会让|就会|就不|触发|关掉|停掉",
    re.I,
)


def changes_nothing(text: str) -> bool:
    """Whether the answer only says nothing changes ("No, the test stays.", 「没有要改的。」)."""
    clean = _AGREEING.sub("", " ".join(text.strip().split()))
    found = _NO_CHANGE.match(clean)
    return found is not None and not clean[found.end() :].strip()


# A word of pushback before what the answer does: "Wait, …", "Actually, …", 「不对，…」「等等，…」.
_PUSHBACK = re.compile(r"^(?:no|not quite|actually|wait|hold on|不对|等等|等一下)\s*[,，.。!！]\s*", re.I)
# A bare no to a yes-or-no question: 「没有，…」「没，…」, "Nope, …", "No. …".
_DENIAL = re.compile(r"^(?:没有|没|不是|nope|no)\s*[,，.。!！]", re.I)
# A word of agreement before what the answer does: "Yes: last Tuesday …", 「对，比如…」.
_AGREEING = re.compile(r"^(?:yes|yeah|yep|sure|right|ok|okay|是的|对|嗯|好)\s*[,，.。:：!！]\s*", re.I)


def premise_named(text: str) -> bool:
    """Whether the person names what they say as a mechanism or as evidence ("The mechanism I have in
    mind is glare: …", 「证据：…」): said beside a question to the partner, it is no mere context."""
    return _labelled(" ".join(text.strip().split())) in {"mechanism", "evidence"}


def _labelled(clean: str) -> str | None:
    """The kind the person names for their answer before its first colon (within 40 characters)."""
    colon = _LABEL_END.search(clean[:40])
    head = clean[: colon.start()] if colon else ""
    for kind, pattern in _LABELS:
        if head and pattern.search(head):
            return kind
    return None


# "Revise: …", 「修改：…」「改成：…」: the person rewrites the proposition, whatever was asked.
_REVISE_LABEL = re.compile(
    r"^\s*(?:revise|revised|reword|new wording|(?:the )?(?:new|revised) (?:proposition|claim)|修改|改成|改为|改写"
    r"|修改后的命题|新的?命题|改写后的命题)\s*[:：]\s*(?P<wording>.+)$"
    # "My claim is the revised one: …", 「我的命题是刚才修改的那一句：…」 restates the proposition
    r"|^(?:.{0,20}[。.!！]\s*)?(?:my (?:proposition|claim) is|我的命题是)[^:：]{0,16}[:：]\s*(?P<restated>.+)$",
    re.I,
)


# A revision announced inside a longer answer: "Revise, narrowed to weekday dinners: …", "Revise, not
# set aside. New version: …", 「我选修改。改成：「…」」 — a revise word opening a sentence, a short
# aside, then the colon that gives the wording.
_REVISE_SAID = re.compile(
    r"(?:^|[.。!！?？，,]\s*|\b(?=(?:my|the) reworded\b))"
    r"(?:so |then |but |and )?(?:i'?ll |i'?d |i |let me |我(?:现在)?的?)?"
    r"(?:revise|revised|reword|(?:my |the )?reworded (?:version|plan|idea|claim)|new version|new wording"
    r"|final version|(?:my )?(?:current |new )?working hypothesis"
    r"|(?:let me |i'?ll |i want to )?(?:change|rephrase|reframe|reword) the (?:question|claim|idea|plan|proposition)"
    r"|改成|改为|修改为|新版本|新的说法|最终版本?|(?:现在的)?工作假设|(?:想了一下，?)?我?换(?:个|一种)说法|重新表述)"
    r"[^:：.。!！?？]{0,40}[:：]\s*(?P<wording>.+)$"
    # "The plan is now: …", "The new plan is to ask …", 「现在的计划是：…」 (a trial's revision was lost)
    r"|(?:^|[.。!！?？，,]\s*)(?:the |my )?(?:new |revised )?(?:plan|idea|claim|proposition|question|decision) is now"
    r"\s*(?::|：|to\b)?\s*(?P<now>.+)$"
    r"|(?:^|[.。!！?？，,—-]\s*)(?:the|my) (?:proposition|claim|idea) is\s*[:：]\s*(?P<is>.+)$"
    r"|(?:^|[.。!！?？，,]\s*)(?:the |my )(?:new|revised) (?:plan|idea|claim|proposition|question|decision) is"
    r"\s*(?::|：|to\b)?\s*(?P<new>.+)$"
    r"|(?:^|[.。!！?？，,]\s*)(?:现在的|新的?|修改后的)(?:计划|想法|命题|问题|决定)(?:(?:是|改成|变成)[:：]?|[:：])"
    r"\s*(?P<zh_new>.+)$",
    re.I,
)


def revised_wording(text: str) -> str | None:
    """The new wording of a labelled revision ("Revise: only before 7am"), or None."""
    clean = text.strip()
    found = _REVISE_LABEL.match(clean)
    wording = (found.group("wording") or found.group("restated") or "") if found else ""
    if not wording:
        said = _REVISE_SAID.search(clean)
        wording = next((g for g in said.group("wording", "now", "is", "new", "zh_new") if g), "") if said else ""
    # quotation marks around the wording are the person's way of setting it off, not part of it; what
    # follows the closing mark ("「…」 and please drop that line") is said about the talk
    wording = wording.strip()
    pairs = {"「": "」", "“": "”", '"': '"', "'": "'"}
    if wording[:1] in pairs:
        # the closing mark, not an apostrophe inside a word ("it's")
        close = re.search(rf"{re.escape(pairs[wording[:1]])}(?![A-Za-z])", wording[1:])
        if close is not None:
            wording = wording[1 : close.start() + 1]
    # a question after the new wording asks the partner ("… than the weekly email. What's the weakest
    # part of that?"); it is no part of the wording
    wording = re.sub(r"(?<=[.。!！])\s*[^.。!！?？]+[?？]\s*$", "", wording.strip())
    # a revised question ends at its question mark: 「为什么周末…热闹？我的猜测是…」 goes on to a guess
    asked = re.search(r"[?？]\s*(?=\S)", wording)
    if asked is not None:
        wording = wording[: asked.start() + 1]
    # "New version: … a year. The test: get 3 quotes …": the next labelled sentence is no part of it
    wording = _NEXT_LABEL.split(wording, maxsplit=1)[0]
    wording = wording.strip().rstrip("。.!！").strip("「」“”\"'").strip().rstrip("。.!！")
    return wording if len(wording) >= 6 else None


_NEXT_LABEL = re.compile(
    r"(?<=[.。!！])\s*(?:the |my )?(?:test|prediction|rival|premise|检验|预测|竞争解释|前提)[^:：.。]{0,12}[:：]"
    # "… drives escaped bugs. I did name a competing explanation, by the way: the three new hires"
    r"|(?<=[.。!！])\s*[^.。:：]{0,30}?(?:competing explanation|rival|alternative|竞争解释|另一种解释)"
    r"[^:：.。]{0,20}[:：]"
    # a sentence that turns back to the partner's question ("No, the reviews don't change my test")
    r"|(?<=[.。!！])\s*(?:no|yes|ok|okay|also|不|是的|好的|另外|还有)[,，\s]"
    # a request about the record after it ("… reports. Please use that.")
    r"|(?<=[.。!！])\s*(?:please|请)\b",
    re.I,
)


# Words that only hand over to what follows: "Another thing: …", "One more thing: …", 「还有一点：…」.
_HANDOVER = re.compile(
    r"^(?:(?:hmm+|oh|ah|ok(?:ay)?|well),?\s+)?(?:another thing|one more thing|one thing|also|plus|besides|oh,? and|"
    r"i mean|我的意思是|我是说|"
    r"还有一点|还有一个|还有|另外一点|再就是|对了|有一点)"
    r"\s*[:：]\s*(?=\S)",
    re.I,
)


def unlabelled(text: str) -> str:
    """The answer without the label the person put before it ("Evidence: I logged…" → "I logged…"):
    the label says what kind of answer it is; quoted back, it is noise (「证据：…」 as a premise)."""
    clean = _HANDOVER.sub("", text.strip(), count=1)
    colon = _LABEL_END.search(clean[:40])
    if colon is None:
        return clean
    head = clean[: colon.start()]
    # a label is a word or two ("Evidence", 「证据」, "A confounder to consider"); a clause before a
    # colon (「我打算用GitHub导出接下来四周的数据」) is what the person says, whatever word it contains
    short = len(head.split()) <= 5 and sum(1 for ch in head if "\u4e00" <= ch <= "\u9fff") <= 8
    if _REVISE_LABEL.match(clean) or (short and any(pattern.search(head) for _, pattern in _LABELS)):
        rest = clean[colon.end() :].strip()
        return rest or clean
    return clean


def classify(text: str, learned: bool = True) -> AnswerKind:
    """The answer's kind: what the person calls it ("Evidence: …"), else what its opening does, else
    the first rule that matches, in the order above (a hedge wins over the rest). ``learned=False``
    leaves out the learned reader: it was trained on whole answers, and on one sentence of a longer
    answer ("发黄的多是靠下面的老叶…", a description) it guessed a rival."""
    clean = " ".join(text.strip().split())
    if not clean:
        return "other"
    named = _labelled(clean)
    if named is not None:
        return named  # type: ignore[return-value]
    wording = revised_wording(clean)
    if wording is not None:
        # 「修改：只限下午三点以后」 narrows the claim; "Revise: remote work lowers output" restates it.
        # Either sharpens the proposition, whatever words the new wording happens to contain.
        inner = classify(wording)
        return "scope" if scope_only(wording) else "definition" if inner == "definition" else "correction"
    if _LABELS[1][1].search(clean) and not _RULES_OUT.search(clean):
        return "confounder"  # 「有个混杂因素」, "a second factor could be moisture"
    # "Yes: last Tuesday I went …" opens with an example after the word that agrees
    lead = _AGREEING.sub("", clean)
    for kind, pattern in _LEADS:
        if pattern.search(lead):
            if kind == "example" and re.search(r"\d", clean) and _EVIDENCE.search(clean):
                return "evidence"  # "Last week I counted: 3 times in ten minutes" reports a count
            return kind  # type: ignore[return-value]
    unchanged = _NO_CHANGE.match(lead)
    if unchanged is not None:
        # 「没有变化，保留这个检验。」 answers "does anything change your test?" with no: it states no new
        # test (the learned reader called it one, and a trial recorded it as a second test)
        rest = lead[unchanged.end() :]
        said = classify(rest, learned=False) if rest else "other"
        return said if said in {"confounder", "test", "evidence", "mechanism", "scope", "correction"} else "other"
    pushback = _PUSHBACK.match(lead)
    if pushback is not None and pushback.end() < len(lead):
        # "Wait, it's not just the day: in January we also switched to a remote call, which might explain
        # it" pushes back and offers a rival: the opener says the person disagrees, what follows says
        # how (a trial's rival was filed as a sharper statement, and "only one explanation" asked on)
        said = classify(lead[pushback.end() :], learned=False)
        if said in {"confounder", "test", "evidence"}:
            return said
    meant = _I_MEAN.search(clean)
    if meant is not None:
        # "It's not really about the eggs as such. I mean: short days switch the laying off, and a lamp would
        # make the days longer" says how it works: after "I mean:" comes a clause, read as what it does (a
        # trial's mechanism was "a sharper statement", and "I mean" made it a definition)
        clause = clean[meant.end() :]
        sized = len(clause.split()) >= 5 or len(_CJK.findall(clause)) >= 8
        # "I mean: since the LEDs went in, pickers grab …" restates the claim in time; it gives no mechanism
        restated = re.match(r"(?:ever )?since\b|after\b|自从|从", clause, re.I) is not None
        said = classify(clause, learned=False) if sized and not restated else "other"
        if said in {"mechanism", "confounder", "test", "evidence"}:
            return said
        if sized and not restated and _CAUSING.search(clause):
            return "mechanism"
    hedged = False
    for kind, pattern in _RULES:
        if pattern.search(clean):
            if kind == "hedge" and _long(clean):
                # "Maybe I just leave later, so I meet fewer neighbours; I can't say": a long answer that
                # also hedges says something; the hedge wins only when nothing else is said
                hedged = True
                continue
            return kind  # type: ignore[return-value]
    if hedged:
        return "hedge"
    if _DENIAL.match(lead):
        # 「没有，我们没开过街边店。」 answers "was there such a case?" with no; the learned reader called
        # it a rival (a trial). A bare no states nothing of a kind; any cue after it was read above.
        return "other"
    # No cue matched: the learned reader, which abstains ("other") when it is not confident.
    return shipped_model().predict(clean) if learned else "other"  # type: ignore[return-value]


# A turn that offers options to pick from: "A. …; B. …", "(1) …", 「①…」, "which of the two", 「哪一种」.
_OPTIONS = re.compile(
    r"\([1-3]\)|[①②③]|(?:^|[\s：:；;，,])[ABC][.、]\s?|\bwhich of\b|\bwhich (?:one|reading|case|premise|outcome)s?\b|"
    r"\bkeep, revise\b|哪(?:一|两)?(?:种|个|条|项|份)|保留、修改",
    re.I,
)


def offers_choice(question: str, contribution: str) -> bool:
    """True when the turn listed options, so "the second one" or 「选B」 names one of them; asked
    "was there such a period?", "the second one" names nothing and must not be filed as a rival."""
    return bool(_OPTIONS.search(question) or _OPTIONS.search(contribution))


# Where a correction names the term the person meant: "No, I mean the number of signups, not the rise",
# "not the rise but the signups", 「我说的是投诉量，不是…」「不是速度，是质量」.
_MEANT = (
    re.compile(
        r"\b(?:i mean|i meant|i(?:'m| am) talking about|what i (?:really )?(?:mean|meant|care about) is|"
        r"it(?:'s| is) about|"
        r"the point is|i(?:'m| am) asking about)\s+(?P<term>[^,.;:!?]+?)(?:,?\s+(?:not|rather than)\b|[,.;:!?]|$)",
        re.I,
    ),
    re.compile(r"\bnot (?:about )?[^,.;]+?,?\s+but (?:about )?(?P<term>[^,.;:!?]+)", re.I),
    re.compile(
        r"(?:我说的是|我指的是|我的意思是|其实我是说|我想说的是|关键是|重点是|我(?:关心|在意|想看|想知道)的是)(?P<term>[^，,。；;！!？?]+?)(?:[，,]?而?不是|[，,。；;！!？?]|$)"
    ),
    re.compile(r"不是[^，,。]{1,12}?[，,]\s*(?:而)?是(?P<term>[^，,。；;！!？?]+)"),
)


# "the fridge tally isn't a premise" is a statement about the record, not a term the claim is about
# a clause, not a term: "the tally isn't a premise"; "I asked you a question" (said about the talk)
_A_CLAUSE = re.compile(
    r"\b(?:is|isn'?t|are|aren'?t|was|wasn'?t|not)\b|不是|[^于]是|^(?:i|you|we)\b|\b(?:asked|said|told)\b|我问|你说",
    re.I,
)


def corrected_term(text: str) -> str | None:
    """The term a correction says the claim is about ("the number of signups"), or None.

    Why: a partner that misread the key term ("caused the rise") and is corrected must ask about what
    the person meant from then on; a trial's correction was heard and the next turns kept the misreading."""
    for pattern in _MEANT:
        found = pattern.search(text.strip())
        if found:
            term = re.sub(r"^(?:the|a|an)\s+", "", found.group("term").strip(), flags=re.I).strip(" \"'“”「」")
            if 2 <= len(term) <= 40 and not _A_CLAUSE.search(term):
                return term
    return None


def _long(text: str) -> bool:
    return len(re.findall(r"[\u4e00-\u9fff]", text)) >= 25 or len(text.split()) >= 14


# a sentence may open with a number: "… a board in the shed. 9 a day in autumn, 3 in January."
_SENTENCES = re.compile(r"(?<=[。！？；!?;])\s*|(?<=[a-z)][.])\s+(?=[A-Z0-9\"“])|(?<=[.])\s+(?=[A-Z\"“])|\s+[—–]\s+")


# An option picked at the opening of a longer answer: "Mostly B, …", "B: the time until…", 「算是C吧，…」.
OPENING_CHOICE = re.compile(
    r"^(?i:mostly |probably |i'?d say |maybe |more like |closer to |option )?([ABC])"
    r"(?:[.,:;!—–-]|\s+(?i:with|but|and|because)\b)"
    r"|^(?:算是|应该是|大概是|更像|更接近|选)?\s*([ABC])(?:吧|[，,。：:；;])"
)  # the letter is a capital: "a friend told me, …" picks nothing


def answer_parts(text: str) -> list[tuple[AnswerKind, str]]:
    """The kinds an answer carries, each with the sentence that carries it; the whole answer's kind first.

    Why: people say several things at once. "The second one worries me. Cities put lanes on streets
    that were already gentrifying" names a premise and offers a rival; 「没有这样的时期。不过我猜原因是…
    我数了一下，十分钟里切出去3次」 gives a mechanism and evidence. Read as one kind, the rest was lost
    or filed in the wrong place (a fresh-eyes trial)."""
    clean = " ".join(text.strip().split())
    first = classify(clean)
    out: list[tuple[AnswerKind, str]] = [(first, unlabelled(clean))]
    if first != "choice" and OPENING_CHOICE.match(clean):
        # "Mostly B, with a baseline: escaped defects went from 14 to 6" picks B and gives evidence
        out.append(("choice", clean))
    pushback = _PUSHBACK.match(out[0][1])
    if pushback is not None and out[0][0] in {"confounder", "test", "evidence"}:
        # "Wait, it's not just the day: in January we also switched …": the rival is what follows the
        # pushback and the short clause that sets it up, not "Wait, it's not just the day"
        rest = out[0][1][pushback.end() :]
        head, colon, tail = rest.partition(":") if ":" in rest[:60] else rest.partition("：")
        out[0] = (out[0][0], tail.strip() if colon and len(head.split()) <= 8 and len(tail.strip()) > 3 else rest)
    sentences = [s.strip() for s in _SENTENCES.split(clean) if s and len(s.strip()) > 3]
    if first != "choice" and len(out) == 1 and len(sentences) > 1 and classify(sentences[0], learned=False) == "choice":
        # "The third. Actually we changed the ticket form in March, so …" picks premise 3 and then says
        # why: a trial kept only the rival and asked about the premises again
        out.append(("choice", sentences[0]))
    if len(sentences) < 2:
        return out
    if first == "test":
        # "Not ready to decide. Test first: I'll learn two pieces …": the test starts where a sentence
        # states it; what comes before it is no part of the test (a trial's summary quoted it)
        at = next((i for i, sentence in enumerate(sentences) if classify(sentence, learned=False) == "test"), 0)
        if at:
            start = clean.find(sentences[at])
            out[0] = (first, unlabelled(clean[start:]) if start >= 0 else out[0][1])
    if first == "confounder":
        # "I already said it: … But there's a rival explanation I should admit: I prep in calm weeks."
        # The rival is what its own sentence says, after the words that announce it
        found = [
            x
            for x in sentences
            if (_LABELS[1][1].search(x) or classify(x, learned=False) == "confounder") and not _ABOUT_SUMMARY.search(x)
        ]
        # a sentence that names the rival ("竞争解释是：我妈5月底搬来住") before one that only mentions the word
        named = next((x for x in found if _NAMED_RIVAL.match(x.strip(" “”\"'「」"))), found[0] if found else None)
        if named is not None:
            head, colon, tail = named.partition(":") if ":" in named else named.partition("：")
            said = tail.strip() if colon and _LABELS[1][1].search(head) and len(tail.strip()) > 3 else unlabelled(named)
            at = sentences.index(named)
            if at > 0 and _SHORT_POINTER.search(said) and classify(sentences[at - 1], learned=False) != "choice":
                # "… the church, which is warmer and has a tuned piano. The room could be doing it.": a short
                # sentence that points back names its rival in the sentence before (a trial kept "The room
                # could be doing it" alone)
                said = _with_before(sentences[at - 1], said)
            out[0] = (first, said)
    if first not in {"test", "confounder", "choice", "other", "hedge"}:
        # the sentence that carries the answer's kind, not a hedge before it: "Honestly I don't know
        # yet. Maybe keep it, but only for busy chain cafés." narrows to the cafés (a trial's proposition
        # read "scope: Honestly I don't know yet")
        carrier = next((x for x in sentences if classify(x, learned=False) == first), None)
        if carrier is None:
            kept = [x for x in sentences if classify(x, learned=False) != "hedge"]
            carrier = " ".join(kept) if 0 < len(kept) < len(sentences) else None
        if carrier is not None:
            out[0] = (first, unlabelled(carrier))
    seen = {first}
    for sentence in sentences:
        kind = classify(sentence, learned=False)
        if kind == "test" and _CONDITION.search(sentence):
            # of two sentences about a test, the one with its condition ("if it's under 1, I drop it")
            out = [(k, unlabelled(sentence) if k == "test" and not _CONDITION.search(s) else s) for k, s in out]
        if kind in seen or kind in {"other", "hedge", "choice"}:
            continue
        if first == "correction" and kind == "confounder" and not _LABELS[1][1].search(sentence):
            continue  # 「这跟工作用时没有关系」 in a correction rejects a misreading; it offers no rival
        if first == "confounder" and kind in {"correction", "example", "definition"}:
            bare = _PUSHBACK.sub("", sentence)
            if bare[1:] and bare[1:] in out[0][1]:
                continue  # the sentence that sets up the rival is part of it, not a second move
        seen.add(kind)
        said = unlabelled(sentence)
        at = sentences.index(sentence)
        if kind == "confounder" and at > 0 and _SHORT_POINTER.search(said):
            before = sentences[at - 1]
            if classify(before, learned=False) != "choice":
                # "… the school hall on Thursdays. The room could be doing it.": the rival the pointer names
                said = _with_before(before, said)
        out.append((kind, said))
    picked = next((s for k, s in out[1:] if k == "choice"), None)
    if picked is not None and out[0][1].startswith(picked) and len(out[0][1]) > len(picked):
        out[0] = (out[0][0], out[0][1][len(picked) :].strip())  # the rival without "The third." before it
    return out


_CONDITION = re.compile(r"\bif\b|如果|要是|假如|若", re.I)
# A short sentence whose subject points back ("The room could be doing it", 「这也可能是原因」).
_SHORT_POINTER = re.compile(
    r"^(?:(?:but |and |so )?(?:that|this|it|the \w+)\b[^.?!]{0,40}[.!]?|(?:这|那|它)[^。！？]{0,14}[。！]?)$", re.I
)
_CJK = re.compile(r"[\u4e00-\u9fff]")


def _with_before(before: str, said: str) -> str:
    """A short rival that points back, with the sentence it points to before it (without a pushback)."""
    before = _HANDOVER.sub("", _PUSHBACK.sub("", before), count=1)  # "Hmm, one thing:" hands over, says nothing
    return before + said if _CJK.search(said) else f"{before[:1].upper()}{before[1:]} {said}"


_GOAL = re.compile(
    r"^(?:the |my |our )?(?:main |real |whole )?(?:goal|aim|purpose) (?:is|was)(?: to)?\s+(?P<en>[^,.;:!?]{2,40})|"
    r"^(?:我们?的)?(?:目标|目的)(?:就|主要)?是(?:为了)?(?P<zh>[^，,。；;：:！!？?]{1,20})",
    re.I,
)


def goal_of(text: str) -> str | None:
    """The goal a plan is judged by, as the person names it ("The goal is saving money" → "saving
    money", 「目标是省钱：…」 → 「省钱」): the measure a clarifying answer gives."""
    found = _GOAL.match(" ".join(text.strip().split()))
    return (found.group("en") or found.group("zh")).strip() if found else None


_WORRY_FRAME = re.compile(
    r"^(?:(?:my|the|our) (?:main |biggest |only |one )?(?:worry|concern|fear) (?:is|would be|was)(?: that)?|"
    r"i'?m (?:a bit |a little |quite |really |also )?(?:worried|concerned|afraid) (?:that|about)|"
    r"(?:我|我们)?(?:最|比较|有点|还是)?(?:担心|害怕|顾虑)(?:的是)?)\s*[:：，,]?\s*",
    re.I,
)


def worry_of(text: str) -> str:
    """What a worry fears, without "My worry is" / 「我担心的是」 before it: quoted as what to watch."""
    rest = _WORRY_FRAME.sub("", text.strip(), count=1)
    return rest if len(rest) > 3 else text.strip()


# A guess at a question's answer, said as one: "it's a claim: I think typing fast frees them to …",
# "My guess is …", 「我猜是…」「我觉得是因为…」.
_GUESS = re.compile(
    r"\b(?:it'?s (?:a|my) (?:claim|guess|hunch)|my (?:best )?(?:guess|hunch|answer) is|"
    r"i (?:think|suspect|bet|reckon|believe)(?: that)?\b(?! so\b))|我(?:猜|估计|觉得|认为|的猜测是)",
    re.I,
)


def stated_guess(text: str) -> str | None:
    """The guess an answer gives to a question-proposition, without what leads up to it ("Actually it's
    not really a question for me, it's a claim: I think …" → "I think …"), or None. A trial's guess was
    recorded as "a first wording" and the next two turns asked for the guess again."""
    clean = " ".join(text.strip().split())
    found = _GUESS.search(clean)
    if found is None:
        return None
    colon = re.search(r"[:：]\s*", clean[: found.end() + 2])
    return clean[colon.end() :] if colon and len(clean) - colon.end() > 8 else clean


def part_of(parts: list[tuple[AnswerKind, str]], *kinds: str) -> str | None:
    """The sentence of the first part of one of ``kinds`` (None when the answer has none); a rival
    is what follows the words that announce it ("竞争解释是我妈来住" → 我妈来住)."""
    found = next((sentence for kind, sentence in parts if kind in kinds), None)
    if found is not None and "confounder" in kinds:
        named = _NAMED_RIVAL.match(found.strip(" “”\"'「」"))
        if named and len(named.group("rival").strip()) > 2:
            return named.group("rival").strip()
    return found


# "Your summary says no rival was named" is about the record, not a rival.
_ABOUT_SUMMARY = re.compile(
    r"你的(?:小结|总结|记录)|(?:your|the) (?:summary|checkpoint|record)\b|you (?:said|wrote)\b", re.I
)
_NAMED_RIVAL = re.compile(
    r"^.{0,40}?(?:竞争解释|另一种解释|另一个原因|rival(?: explanation)?|competing explanation|alternative explanation)"
    r"[^:：是]{0,24}?(?:\s+is\b|是|[:：])\s*(?P<rival>.+)$",
    re.I,
)


def scope_only(wording: str) -> bool:
    """A revision that only narrows ("only for the backend team", 「只限下午三点以后」), not a new
    wording that happens to open with a scope (「对我八岁的女儿来说，平板上的链接…所以复述的要点更少」)."""
    short = len(re.findall(r"[\u4e00-\u9fff]", wording)) <= 20 and len(wording.split()) <= 12
    return short and classify(wording) == "scope"
