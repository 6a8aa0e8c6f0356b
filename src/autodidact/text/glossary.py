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

# Everyday words of how-to questions and command-line manuals, which a Chinese manual writes in
# Chinese and an English one in English: 「如何以 UTC 显示时间」 asks what coreutils writes as "display
# the time in UTC". Used only to reach English documents (:func:`english_of` with ``general``):
# over a Chinese manual these words would find every section that quotes an English command line
# (docs/text.md, "The glossary").
GENERAL = {
    "显示": "display show print",
    "打印": "print",
    "输出": "output print",
    "输入": "input",
    "日期": "date",
    "时间": "time",
    "时区": "time zone",
    "格式": "format",
    "转换": "convert conversion",
    "说明符": "specifier specifiers",
    "秒数": "seconds",
    "指定": "specified specify",
    "当前": "current",
    "压缩": "compress compression",
    "解压": "decompress uncompress",
    "级别": "level",
    "排序": "sort sorting",
    "重复": "duplicate repeated",
    "去重": "duplicate unique",
    "字段": "field",
    "分隔符": "separator delimiter",
    "反向": "reverse",
    "逆序": "reverse",
    "稳定": "stable",
    "数值": "numeric number",
    "数字": "number numeric",
    "计数": "count",
    "选项": "option",
    "脚本": "script",
    "正则表达式": "regular expression regex",
    "搜索": "search",
    "查找": "find search",
    "替换": "replace substitute",
    "下载": "download",
    "目录": "directory",
    "权限": "permission permissions",
    "用户": "user",
    "链接": "link",
    "符号链接": "symbolic link",
    "环境变量": "environment variable",
    "退出状态": "exit status",
    "上下文": "context",
    "大小写": "case",
    "补丁": "patch",
    "差异": "difference differences",
    "精度": "precision scale",
    "进制": "base",
    "默认": "default",
    "标准输入": "standard input",
    "标准输出": "standard output",
    "错误": "error",
    "备份": "backup",
    "递归": "recursive recursively",
    "程序": "program programs",
    "国际化": "internationalization i18n",
    "本地化": "localization l10n",
    "翻译": "translation translate translated",
    "提取": "extract extracts",
    "维护": "maintain maintaining",
    "合并": "merge merges",
    "创建": "create creates",
    "生成": "generate generates",
    "签名": "sign signature",
    "验证": "verify verification",
    "导出": "export",
    "密钥": "key keys",
    "加密": "encrypt encryption",
    "解密": "decrypt decryption",
    "名称": "name",
    "文件名": "file name",
    "修改": "modify modified modification",
    "访问": "access accessed",
    "文本": "text",
    "编辑": "edit editing",
    "就地": "in-place",
    "原地": "in-place",
    "匹配": "match matches",
    "模式": "pattern",
    "执行": "execute",
    "命令": "command",
    "删除": "delete remove",
    "大小": "size",
    "类型": "type",
    "全局": "global",
    "打包": "archive",
    "编译": "compile",
    "安装": "install",
    "参数": "argument parameter",
    "日志": "log logging",
    "记录器": "logger",
    "处理器": "handler handlers",
    "格式化器": "formatter formatters",
    "读取": "read reading",
    "写入": "write writing",
    "写到": "write",
    "解析": "parse parsing",
    "压缩包": "archive",
    "连接": "connection connect",
    "断言": "assert assertion",
    "测试": "test tests",
    "后缀": "suffix extension",
    "扩展名": "extension suffix",
    "拼接": "join joining",
    "遍历": "iterate walk traverse",
    "路径": "path paths",
    "父目录": "parent directory",
    "绝对路径": "absolute path",
    "相对路径": "relative path",
    "分割": "split",
    "行数": "lines",
    "字节": "bytes",
    "时间差": "time difference",
    "计算": "compute calculate",
}
_EVERY = {**GENERAL, **GLOSSARY}
GLOSSARY_RE = re.compile("|".join(re.escape(k) for k in sorted(GLOSSARY, key=len, reverse=True)))
_EVERY_RE = re.compile("|".join(re.escape(k) for k in sorted(_EVERY, key=len, reverse=True)))


def english_of(text: str, *, general: bool = True) -> list[str]:
    """The English words the glossary gives for the Chinese words of ``text``, in order, once each;
    without ``general``, only for the technical words a Chinese manual also writes in English
    (「版本固定」 → Pin-Priority)."""
    table, pattern = (_EVERY, _EVERY_RE) if general else (GLOSSARY, GLOSSARY_RE)
    out: list[str] = []
    for match in pattern.finditer(text):
        for word in table[match.group(0)].split():
            if word not in out:
                out.append(word)
    return out


def english_groups(text: str, *, general: bool = True) -> list[list[str]]:
    """:func:`english_of`, word by word: 「按名称和修改时间查找」 → [name], [modify, modified,
    modification], [time], [find, search]. A section says the Chinese word when it says one of its
    English words (sources/outline.py)."""
    table, pattern = (_EVERY, _EVERY_RE) if general else (GLOSSARY, GLOSSARY_RE)
    return [table[m.group(0)].split() for m in pattern.finditer(text)]


def glossary_spans(text: str) -> list[tuple[str, list[str]]]:
    """Each Chinese word of ``text`` the whole glossary knows, with its English words, in order."""
    return [(m.group(0), _EVERY[m.group(0)].split()) for m in _EVERY_RE.finditer(text)]
