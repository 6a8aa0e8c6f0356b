"""Labelled question pairs for measuring the dedup threshold (Chinese and English).

dup: same core intent (should be deduplicated); related: same subject, different intent;
unrelated: different subject.
"""

DUP = [
    ("What is a Python generator?", "What exactly is a generator in Python?"),
    ("What are Python generators?", "What is a generator in Python?"),
    ("How do Python generators work?", "How does a Python generator work internally?"),
    ("How do generators differ from iterators?", "What is the difference between generators and iterators?"),
    ("What are the limitations of asyncio coroutines?", "What limitations do asyncio coroutines have?"),
    ("When should I use a generator expression?", "In which scenarios is a generator expression suitable?"),
    ("Why does Python need the GIL?", "What is the reason Python needs a GIL?"),
    ("What does the yield keyword do in Python?", "What does yield do in Python?"),
    ("什么是 Python 生成器？", "Python 生成器是什么？"),
    ("生成器和迭代器有什么区别？", "生成器与迭代器的区别是什么？"),
    ("协程的工作原理是什么？", "协程是如何工作的？"),
    ("期权波动率曲面是什么？", "什么是期权的波动率曲面？"),
    ("备兑开仓策略有哪些局限？", "备兑开仓策略的局限是什么？"),
    ("APT 如何解决依赖关系？", "APT 是怎么解决依赖关系的？"),
    ("为什么 Debian 使用 APT？", "Debian 使用 APT 的原因是什么？"),
]

RELATED = [
    ("What are Python generators?", "How do Python generators work?"),
    ("What is a Python generator?", "How do generators differ from iterators?"),
    ("What is a coroutine?", "What are the limitations of coroutines?"),
    ("How does asyncio schedule coroutines?", "What is an asyncio event loop?"),
    ("What is the yield expression?", "What is the yield from statement used for in delegation?"),
    ("When should I use a generator?", "What are the limitations of generators?"),
    ("What is a Python generator?", "What is a Python coroutine?"),
    ("Python 生成器是什么？", "Python 生成器如何工作？"),
    ("生成器是什么？", "生成器与迭代器有什么区别？"),
    ("协程是什么？", "协程有哪些局限？"),
    ("APT 是什么？", "APT 如何解决依赖关系？"),
    ("期权波动率曲面是什么？", "波动率曲面如何用于策略选择？"),
    ("dpkg 和 APT 有什么区别？", "dpkg 如何安装软件包？"),
]

UNRELATED = [
    ("What is a Python generator?", "How does TCP congestion control work?"),
    ("What are the limitations of asyncio?", "What is a decorator in Python?"),
    ("How do context managers work?", "What is the market size of electric vehicles?"),
    ("什么是 Python 生成器？", "国内期权市场的规模有多大？"),
    ("APT 如何解决依赖关系？", "如何配置网络接口？"),
    ("备兑开仓被行权后怎么操作？", "Debian 的发布周期是怎样的？"),
    ("What is a Python generator?", "什么是波动率曲面？"),
]
