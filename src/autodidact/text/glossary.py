"""Chinese technical words → English words, so a Chinese question or facet finds an English corpus.

Why in the text layer: the evidence agent translates a Chinese question's words for retrieval, and
the documents' outline (sources/outline.py) translates a Chinese facet ("版本固定") to find the
sections an English or mixed manual writes as "Pin-Priority". One table for both (docs/text.md).
"""

from __future__ import annotations

import re

# Longest match first.
GLOSSARY = {
    "生成器": "generator",
    "协程": "coroutine",
    "迭代器": "iterator",
    "可迭代": "iterable",
    "异步": "asynchronous async",
    "等待": "await",
    "上下文管理器": "context manager",
    "装饰器": "decorator",
    "异常": "exception",
    "函数": "function",
    "方法": "method",
    "语句": "statement",
    "表达式": "expression",
    "循环": "loop",
    "类": "class",
    "模块": "module",
    "对象": "object",
    "变量": "variable",
    "作用域": "scope",
    "字典": "dictionary dict",
    "列表": "list",
    "元组": "tuple",
    "集合": "set",
    "字符串": "string",
    "整数": "integer",
    "浮点": "floating point",
    "属性": "attribute",
    "参数": "argument",
    "返回": "return",
    "调用": "call",
    "导入": "import",
    "继承": "inheritance",
    "元类": "metaclass",
    "描述器": "descriptor",
    "切片": "slice slicing",
    "赋值": "assignment",
    "运算符": "operator",
    "比较": "comparison",
    "断言": "assert",
    "匹配": "match pattern",
    "模式": "pattern",
    "捕获": "catch except",
    "抛出": "raise",
    "挂起": "suspend",
    "恢复": "resume",
    "暂停": "suspend pause",
    "线程": "thread",
    "进程": "process",
    "事件循环": "event loop",
    "垃圾回收": "garbage collection",
    "内存": "memory",
    "命名空间": "namespace",
    "闭包": "closure",
    "递归": "recursion",
    "解释器": "interpreter",
    "编译": "compile",
    "语法": "syntax",
    "关键字": "keyword",
    "格式化": "format formatting",
    "文件": "file",
    "包": "package",
    "软件包": "package",
    "网络": "network",
    "内核": "kernel",
    "命令": "command",
    "配置": "configuration",
    "安装": "install installation",
    "数据库": "database",
    "索引": "index",
    "缓存": "cache",
    "版本固定": "pinning pin version",
    "固定": "pin pinning",
    "版本": "version",
    "升级": "upgrade",
    "软件源": "sources archive repository",
    "档案库": "archive",
    "防火墙": "firewall",
    "依赖": "dependency dependencies",
    "优先级": "priority",
}
GLOSSARY_RE = re.compile("|".join(re.escape(k) for k in sorted(GLOSSARY, key=len, reverse=True)))


def english_of(text: str) -> list[str]:
    """The English words the glossary gives for the Chinese words of ``text``, in order, once each."""
    out: list[str] = []
    for match in GLOSSARY_RE.finditer(text):
        for word in GLOSSARY[match.group(0)].split():
            if word not in out:
                out.append(word)
    return out
