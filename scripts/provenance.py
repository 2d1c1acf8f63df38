#!/usr/bin/env python3
# scripts/provenance.py [QUEUE...]: make lint's provenance check.
#
# Every patch of a queue's series (kernel, bpftool, docs, bash-completion,
# selftests, or the QUEUEs named) is read up to its "---" line and must be
# one of three kinds, told by its trailers:
#   adapted      written by the team from the diff of one upstream commit:
#                "Upstream: <sha40> ("<subject>")", "Upstream-Author:",
#                "Upstream-Date:", "Origin: backport, commit:<sha40>";
#                the body opens with "Adapted from upstream commit <sha12>
#                ("<subject>"), <author>, <date>, for 6.12." and has a
#                paragraph "Differences from upstream's diff: ...".
#   description  written by the team from an upstream commit's description,
#                its diff not available: the same three Upstream* trailers,
#                "Origin: vendor, commit:<sha40>", "Forwarded: not-needed";
#                the body opens with "Written from the description of
#                upstream commit <sha12> ("<subject>"), <author>, <date>;
#                upstream's diff was not available to us."
#   ours         "Origin: vendor", "Forwarded: no|not-needed|<URL>", no
#                Upstream* trailers, and "Not upstream" said in the message.
# For every kind: From: is the team and Date: a mail date (when the team
# wrote the patch); the only sign-off, the last trailer,
# is the team's; no Acked-by, Reviewed-by, Tested-by, Co-developed-by or
# Suggested-by of anyone; no stable-style "commit <sha> upstream." line; the
# SHA, subject, author and date of the opening sentence are the trailers';
# one patch per upstream commit in a queue (unless PROVENANCE.md's relation
# for it says "part" or "half"). QUEUE/PROVENANCE.md has one row per patch
# of the series, in order: | patch | sha40 or "ours" | relation |..., with
# the relation naming the kind ("adapted from upstream's diff", "written
# from upstream's description", "ours"). No message names this repository's
# paths, make targets or test guest (patches are read outside it). No
# message repeats a sentence, 8 or more words in a row (case and spacing
# aside), of an upstream message kept in upstream/*.patch. For an adapted
# patch whose commit is kept in upstream/<sha40>.patch, the changed lines of
# the patches naming that commit (this queue's and the others') are
# compared, per file and whitespace-normalized, with upstream's; the
# function, struct or file around every line that differs, either way, of
# the files this queue owns, and every file of upstream's diff no such
# patch touches (by the patches of the queue that would own it), must be
# named in the "Differences from upstream's diff:" paragraph. The place of
# a line is the nearest function or struct definition above it in its
# hunk, else what the hunk header names (a goto label names nothing),
# else the file's path; blank changed lines are not compared.
#
# Environment: PROV_QUEUE_ROOT (default: this repository) holds the queue
# folders to check; PROV_UPSTREAM (default: this repository's upstream/)
# the upstream commits. One line per problem, "provenance: FILE: ...";
# exit status 1 when there is any.
import collections
import email.utils
import os
import re
import signal
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.environ.get("PROV_QUEUE_ROOT") or TOP
UPSTREAM = os.environ.get("PROV_UPSTREAM") or os.path.join(TOP, "upstream")
QUEUES = ["kernel", "bpftool", "docs", "bash-completion", "selftests"]
TEAM = "Tracing Multi Backport <tracing-multi@localhost>"
# What a message must not name: this repository's paths, make targets,
# test guest, or the seed files upstream's diffs came in.
OURS_REF = re.compile(
    r"\b(guest|seeds?)\b|\bmake (test|stress|bench|regress|deb|lint|tree)\b"
    r"|(^|[^a-z/.])(tests|docs|scripts|qemu|build)/")
UNKNOWN_WHO = "author not in the sources available to us"
UNKNOWN_WHEN = "author date not in the sources available to us"
SHA40 = r"[0-9a-f]{40}"
DATE = r"\d{4}-\d{2}-\d{2}"
ADAPTED_RE = re.compile(
    r"^Adapted from upstream commit ([0-9a-f]{12}) \(\"(.+?)\"\), "
    r"(.+?), (" + DATE + "|" + UNKNOWN_WHEN + r"), for 6\.12\.(\s|$)")
DESCR_RE = re.compile(
    r"^Written from the description of upstream commit ([0-9a-f]{12}) "
    r"\(\"(.+?)\"\), (.+?), (" + DATE + "|" + UNKNOWN_WHEN + r"); "
    r"upstream's diff was not available to us\.(\s|$)")
FOREIGN = re.compile(
    r"^(Acked|Reviewed|Tested|Co-developed|Suggested)-by:", re.I)
STABLE = re.compile(
    r"^\s*(\[\s*)?(commit [0-9a-f]{7,40} upstream\.?|upstream commit "
    r"[0-9a-f]{7,40})", re.I)
TRAILER = re.compile(r"^([A-Za-z][A-Za-z-]*): (.*)$")
ORDER = {
    "adapted": ["Upstream", "Upstream-Author", "Upstream-Date", "Origin",
                "Signed-off-by"],
    "description": ["Upstream", "Upstream-Author", "Upstream-Date",
                    "Origin", "Forwarded", "Signed-off-by"],
    "ours": ["Origin", "Forwarded", "Signed-off-by"],
}
RELATION = {
    "adapted": "adapted from upstream's diff",
    "description": "written from upstream's description",
    "ours": "ours",
}
DIFF_PARA = "Differences from upstream's diff:"
NGRAM = 8

problems = []


def bad(where, what):
    problems.append((where, "provenance: %s: %s" % (where, what)))


def queue_of(path):
    """The queue owning a file of the tree (scripts/lib.sh's queue_of)."""
    if path.startswith("tools/bpf/bpftool/Documentation/"):
        return "docs"
    if path.startswith("tools/bpf/bpftool/bash-completion/"):
        return "bash-completion"
    if path.startswith(("tools/bpf/bpftool/", "tools/lib/bpf/")):
        return "bpftool"
    if path.startswith("tools/testing/selftests/"):
        return "selftests"
    return "kernel"


class Patch:
    """A patch file: mail headers, message body, trailers and diff."""

    def __init__(self, path, text):
        self.path = path
        lines = text.split("\n")
        try:
            cut = lines.index("---")
        except ValueError:
            cut = len(lines)
        head, self.diff = lines[:cut], lines[cut + 1:]
        if head and head[0].startswith("From ") and not head[0].startswith("From:"):
            head = head[1:]
        self.headers = {}
        i, key = 0, None
        while i < len(head) and head[i].strip():
            line = head[i]
            if line[:1] in " \t" and key:
                self.headers[key] += " " + line.strip()
            else:
                k, _, v = line.partition(":")
                key = k.strip()
                self.headers[key] = v.strip()
            i += 1
        body = head[i:]
        while body and not body[0].strip():
            body = body[1:]
        while body and not body[-1].strip():
            body = body[:-1]
        self.body = body
        paras, cur = [], []
        for line in body:
            if line.strip():
                cur.append(line)
            elif cur:
                paras.append(cur)
                cur = []
        if cur:
            paras.append(cur)
        self.paras = paras
        self.trailers = []
        if paras and all(TRAILER.match(l) for l in paras[-1]):
            self.trailers = [TRAILER.match(l).groups() for l in paras[-1]]
        self.text_paras = paras[:-1] if self.trailers else paras

    def trailer(self, key):
        return [v for k, v in self.trailers if k == key]

    def message(self):
        """The prose of the body, trailers left out."""
        return "\n".join("\n".join(p) for p in self.text_paras)


def norm(s):
    return " ".join(s.split())


# ---- diffs ---------------------------------------------------------------

FUNC_DEF = re.compile(
    r"^(?:[A-Za-z_][\w\s\*,()]*?[\s\*])?([A-Za-z_]\w*)\s*\((?!\*)")
STRUCT_DEF = re.compile(r"^(?:static\s+)?(?:const\s+)?(struct|union|enum)\s+(\w+)\s*(\{|$)")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do",
            "else", "case", "defined"}


def definition(code):
    """The function or struct a line of C at column 0 defines, if any."""
    if not code or code[0] in " \t#{}/*" or code.rstrip().endswith(";"):
        return None
    m = STRUCT_DEF.match(code)
    if m:
        return m.group(2)
    m = FUNC_DEF.match(code)
    if m and m.group(1) not in KEYWORDS:
        # A bare "NAME(" (a macro call like BTF_ID(...)) defines nothing;
        # a function has its type before the name, on this line or alone
        # on the line above (handled by the caller).
        before = code[:m.start(1)].strip()
        if before:
            return m.group(1)
    return None


def hunk_context(text):
    """What a hunk header names after its @@: a function, a struct, a
    variable; None for a goto label, which names no place in the file."""
    text = text.strip()
    if not text or re.fullmatch(r"\w+:", text):
        return None
    m = STRUCT_DEF.match(text)
    if m:
        return m.group(2)
    m = re.search(r"([A-Za-z_]\w*)\s*\(", text)
    if m and m.group(1) not in KEYWORDS:
        return m.group(1)
    m = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*(=.*|;)?\s*$", text)
    if m:
        return m.group(1)
    return text


def parse_diff(lines):
    """{path: [(sign, normalized line, context)]} of a diff's changed lines."""
    files = collections.OrderedDict()
    path, ctx, prev = None, None, ""
    for line in lines:
        if line.startswith("diff --git "):
            m = re.match(r"diff --git a/(\S+) b/(\S+)", line)
            path = m.group(2) if m else None
            if path:
                files.setdefault(path, [])
            ctx = None
            continue
        if path is None or line.startswith(("--- ", "+++ ", "index ")):
            continue
        if line.startswith("@@"):
            m = re.match(r"@@ [^@]* @@(.*)$", line)
            ctx = hunk_context(m.group(1)) if m else None
            prev = ""
            continue
        if not line or line[0] not in " +-":
            continue
        code = line[1:]
        name = definition(code)
        if name is None and re.match(r"^[A-Za-z_]\w*\s*\(", code) and \
                prev and prev[0] not in " \t#" and not prev.rstrip().endswith((";", "}", ")", ",")):
            name = re.match(r"^([A-Za-z_]\w*)", code).group(1)
        if name:
            ctx = name
        prev = code
        if line[0] in "+-":
            n = norm(code)
            if n:
                files[path].append((line[0], n, ctx or path))
    return files


def compare(ours, theirs):
    """Contexts of the lines that differ between two [(sign, line, ctx)]."""
    def unmatched(a, b):
        left = collections.Counter((s, l, c) for s, l, c in b)
        rest = []
        for s, l, c in a:
            if left[(s, l, c)]:
                left[(s, l, c)] -= 1
            else:
                rest.append((s, l, c))
        left2 = collections.Counter()
        for (s, l, c), n in left.items():
            left2[(s, l)] += n
        out = []
        for s, l, c in rest:
            if left2[(s, l)]:
                left2[(s, l)] -= 1
            else:
                out.append(c)
        return out
    return set(unmatched(ours, theirs)) | set(unmatched(theirs, ours))


def named(ctx, text):
    if "/" in ctx or "." in ctx and " " not in ctx:
        return ctx in text
    if re.fullmatch(r"\w+", ctx):
        return re.search(r"(?<![\w])" + re.escape(ctx) + r"(?![\w])", text) is not None
    return norm(ctx) in norm(text)


# ---- upstream ------------------------------------------------------------

def load_upstream():
    commits = {}
    if not os.path.isdir(UPSTREAM):
        return commits
    for name in sorted(os.listdir(UPSTREAM)):
        m = re.fullmatch(r"(" + SHA40 + r")\.patch", name)
        if not m:
            continue
        with open(os.path.join(UPSTREAM, name), encoding="utf-8") as f:
            lines = f.read().split("\n")
        try:
            cut = lines.index("---")
        except ValueError:
            cut = len(lines)
        head = lines[:cut]
        # The message: after the header lines (commit, Repository, Author,
        # Date) and the subject, without Link:/tag lines.
        i = 0
        while i < len(head) and head[i].strip():
            i += 1
        msg = [l for l in head[i:] if l.strip()]
        subject = msg[0] if msg else ""
        # Trailer lines (Link:, Signed-off-by: ...) are no prose.
        words = [w.lower() for l in msg[1:] if not re.match(r"^[A-Za-z-]+: \S", l)
                 for w in l.split()]
        commits[m.group(1)] = {
            "subject": subject,
            "words": words,
            "diff": parse_diff(lines[cut + 1:]),
        }
    return commits


def ngrams(words):
    return {tuple(words[i:i + NGRAM]) for i in range(len(words) - NGRAM + 1)}


# ---- checks ----------------------------------------------------------------

def kind_of(p, where):
    origin = p.trailer("Origin")
    if len(origin) != 1:
        bad(where, "needs exactly one Origin: trailer (found %d): "
            "'Origin: backport, commit:<sha40>' (adapted), 'Origin: vendor, "
            "commit:<sha40>' (written from upstream's description) or "
            "'Origin: vendor' (ours)" % len(origin))
        return None, None
    m = re.fullmatch(r"(backport|vendor)(?:, commit:(" + SHA40 + "))?", origin[0])
    if not m or (m.group(1) == "backport" and not m.group(2)):
        bad(where, "Origin: %s is none of 'backport, commit:<sha40>', "
            "'vendor, commit:<sha40>', 'vendor'" % origin[0])
        return None, None
    if m.group(1) == "backport":
        return "adapted", m.group(2)
    return ("description", m.group(2)) if m.group(2) else ("ours", None)


def check_patch(q, name, p, upstream_words):
    where = "%s/%s" % (q, name)
    info = {"kind": None, "sha": None}
    frm = p.headers.get("From", "")
    if frm != TEAM:
        bad(where, "From: %s; the code of every patch is the team's: "
            "From: %s" % (frm or "missing", TEAM))
    try:
        email.utils.parsedate_to_datetime(p.headers.get("Date", ""))
    except (TypeError, ValueError):
        bad(where, "Date: '%s' is not a mail date; want when the team wrote "
            "the patch, e.g. 'Thu, 3 Dec 2026 10:31:35 +0000'"
            % p.headers.get("Date", ""))
    for line in p.body:
        if FOREIGN.match(line):
            bad(where, "'%s': no Acked-by/Reviewed-by/Tested-by/"
                "Co-developed-by/Suggested-by of anyone; name people in "
                "prose if needed" % line.strip())
        if STABLE.match(line):
            bad(where, "'%s': stable's 'commit <sha> upstream.' form certifies "
                "upstream's diff; open with 'Adapted from upstream commit "
                "...' or 'Written from the description of upstream commit "
                "...'" % line.strip())
    sob = [l for l in p.body if re.match(r"^Signed-off-by:", l, re.I)]
    if sob != ["Signed-off-by: " + TEAM]:
        bad(where, "sign-offs %s; want exactly one, the team's: "
            "'Signed-off-by: %s'" % (sob or "none", TEAM))
    if not p.trailers:
        bad(where, "the message does not end in a block of trailers")
        return info
    if p.trailers[-1] != ("Signed-off-by", TEAM):
        bad(where, "the last trailer must be 'Signed-off-by: %s'" % TEAM)
    kind, osha = kind_of(p, where)
    info["kind"], info["sha"] = kind, osha
    if kind:
        keys = [k for k, _ in p.trailers]
        if keys != ORDER[kind]:
            bad(where, "trailers %s; a patch %s has, in this order: %s" % (
                ", ".join(keys), RELATION[kind], ", ".join(ORDER[kind])))
    first = norm(" ".join(p.text_paras[0])) if p.text_paras else ""
    text = p.message()
    if kind in ("adapted", "description"):
        up = p.trailer("Upstream")
        author = p.trailer("Upstream-Author")
        date = p.trailer("Upstream-Date")
        m = re.fullmatch(r"(" + SHA40 + r") \(\"(.+)\"\)", up[0]) if len(up) == 1 else None
        if not m:
            bad(where, "want one 'Upstream: <sha40> (\"<subject>\")' trailer")
        elif m.group(1) != osha:
            bad(where, "Upstream: names %s, Origin: %s; both name the commit "
                "the patch comes from" % (m.group(1)[:12], osha[:12]))
        if len(author) != 1 or not re.fullmatch(r"unknown|[^<>]+ <[^<>@\s]+@[^<>\s]+>", author[0]):
            bad(where, "want one 'Upstream-Author: Name <email>' (or "
                "'unknown') trailer")
        if len(date) != 1 or not re.fullmatch(DATE + "|unknown", date[0]):
            bad(where, "want one 'Upstream-Date: YYYY-MM-DD' (or 'unknown') "
                "trailer")
        rx = ADAPTED_RE if kind == "adapted" else DESCR_RE
        s = rx.match(first)
        want = ("'Adapted from upstream commit <sha12> (\"<subject>\"), "
                "<author>, <YYYY-MM-DD>, for 6.12.'" if kind == "adapted" else
                "'Written from the description of upstream commit <sha12> "
                "(\"<subject>\"), <author>, <YYYY-MM-DD>; upstream's diff was "
                "not available to us.'")
        if not s:
            bad(where, "a patch %s opens with %s" % (RELATION[kind], want))
        elif m and author and date:
            sha12, subj, who, when = s.group(1), s.group(2), s.group(3), s.group(4)
            if sha12 != m.group(1)[:12]:
                bad(where, "the opening sentence names %s, the Upstream: "
                    "trailer %s" % (sha12, m.group(1)[:12]))
            if subj != m.group(2):
                bad(where, "the opening sentence's subject \"%s\" is not the "
                    "Upstream: trailer's \"%s\"" % (subj, m.group(2)))
            aname = author[0].split(" <")[0]
            if (aname == "unknown") != (who == UNKNOWN_WHO) or \
                    (aname != "unknown" and who != aname):
                bad(where, "the opening sentence's author '%s' is not the "
                    "Upstream-Author: trailer's '%s' (an unknown author is "
                    "'%s' there and 'unknown' here)" % (who, aname, UNKNOWN_WHO))
            if (date[0] == "unknown") != (when == UNKNOWN_WHEN) or \
                    (date[0] != "unknown" and when != date[0]):
                bad(where, "the opening sentence's date '%s' is not the "
                    "Upstream-Date: trailer's '%s'" % (when, date[0]))
        if kind == "description" and "diff was not available" not in first:
            bad(where, "say in the first paragraph that upstream's diff was "
                "not available")
        if kind == "description":
            fwd = p.trailer("Forwarded")
            if fwd != ["not-needed"]:
                bad(where, "a patch written from upstream's description is "
                    "upstream's already: 'Forwarded: not-needed'")
        if kind == "adapted" and not any(
                norm(" ".join(pp)).startswith(DIFF_PARA) for pp in p.text_paras):
            bad(where, "an adapted patch needs a paragraph beginning "
                "\"%s\" naming where and why ours differs" % DIFF_PARA)
    elif kind == "ours":
        for k in ("Upstream", "Upstream-Author", "Upstream-Date"):
            if p.trailer(k):
                bad(where, "a patch of ours has no %s: trailer" % k)
        if re.match(r"^(Adapted|Written) from ", first):
            bad(where, "opens like an upstream-based patch but has "
                "'Origin: vendor' without a commit")
        if not re.search(r"\bnot upstream\b", text, re.I):
            bad(where, "a patch of ours says \"Not upstream\" and why it "
                "exists")
        fwd = p.trailer("Forwarded")
        if len(fwd) != 1 or not re.fullmatch(r"no|not-needed|https?://\S+", fwd[0]):
            bad(where, "a patch of ours needs 'Forwarded: no|not-needed|<URL>'")
    whole = "\n".join([p.headers.get("Subject", "")] + p.body)
    for i, line in enumerate(whole.split("\n")):
        if OURS_REF.search(line):
            bad(where, "names this repository's paths, make targets or test "
                "guest, which readers of the patch do not have: '%s'" % line.strip())
    # Sentences of upstream's messages.
    words = [w.lower() for w in text.split()]
    for i in range(len(words) - NGRAM + 1):
        g = tuple(words[i:i + NGRAM])
        src = upstream_words.get(g)
        if src:
            bad(where, "repeats upstream %s's words \"%s\"; say it in our "
                "own words" % (src[:12], " ".join(g)))
            break
    return info


def differences_paragraph(p):
    out = []
    on = False
    for pp in p.text_paras:
        t = norm(" ".join(pp))
        if t.startswith(DIFF_PARA):
            on = True
        elif on and not pp[0].startswith((" ", "-", "\t")):
            on = False
        if on:
            out.append("\n".join(pp))
    return "\n".join(out)


def check_table(q, series, infos):
    table = os.path.join(ROOT, q, "PROVENANCE.md")
    where = "%s/PROVENANCE.md" % q
    if not os.path.isfile(table):
        bad(where, "missing: one row per patch, | patch | sha40 or ours | "
            "relation |")
        return {}
    rows = []
    with open(table, encoding="utf-8") as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("|") and re.fullmatch(r"\d{4}-.*\.patch", cells[0]):
                rows.append(cells)
    rel = {}
    for n, name in enumerate(series):
        if n >= len(rows):
            bad(where, "no row for %s (row %d)" % (name, n + 1))
            continue
        row = rows[n]
        if row[0] != name:
            bad(where, "row %d is %s, the series has %s there" % (n + 1, row[0], name))
            continue
        info = infos.get(name) or {}
        kind, sha = info.get("kind"), info.get("sha")
        want = sha if kind in ("adapted", "description") else "ours"
        if len(row) < 3:
            bad(where, "%s: want | patch | sha40 or ours | relation |" % name)
            continue
        if kind and row[1] != want:
            bad(where, "%s: the patch says %s, the table '%s'" % (name, want, row[1]))
        if kind and not row[2].lower().startswith(RELATION[kind]):
            bad(where, "%s: relation '%s' should begin with the patch's "
                "kind, '%s'" % (name, row[2], RELATION[kind]))
        rel[name] = row[2]
        # kernel/: what runs a patch of ours (issue 43): confined to
        # tracing_multi links, or shared with its reason.
        if q == "kernel" and kind:
            reach = row[3] if len(row) > 3 else ""
            if kind != "ours":
                if reach != "-":
                    bad(where, "%s: reach '%s': an upstream patch's reach is "
                        "upstream's, write -" % (name, reach))
            elif not (reach.startswith("confined") or reach.startswith("shared")):
                bad(where, "%s: reach '%s': say confined (only tracing_multi "
                    "links reach it) or shared: what else reaches it" % (name, reach))
            elif reach.startswith("shared") and not re.search(r"\b(bug|needed):", reach):
                bad(where, "%s: a shared patch of ours needs its reason: "
                    "\"bug:\" (and the test that shows it) or \"needed:\" (why "
                    "the link can't work without it)" % name)
    if len(rows) > len(series):
        bad(where, "%d rows for %d patches" % (len(rows), len(series)))
    return rel


def main(argv):
    queues = argv or QUEUES
    upstream = load_upstream()
    upstream_words = {}
    for sha, c in upstream.items():
        for g in ngrams(c["words"]):
            upstream_words.setdefault(g, sha)
    patches = {}
    series = {}
    for q in QUEUES:
        sfile = os.path.join(ROOT, q, "series")
        if not os.path.isfile(sfile):
            continue
        with open(sfile, encoding="utf-8") as f:
            series[q] = [l.strip() for l in f if l.strip() and not l.startswith("#")]
        for name in series[q]:
            path = os.path.join(ROOT, q, name)
            try:
                with open(path, encoding="utf-8") as f:
                    patches[(q, name)] = Patch(path, f.read())
            except OSError as e:
                if q in queues:
                    bad("%s/%s" % (q, name), "cannot read: %s" % e.strerror)
    infos_all = {}
    for (q, name), p in patches.items():
        infos_all[(q, name)] = check_patch(q, name, p, upstream_words)
    by_sha = collections.defaultdict(list)
    for (q, name), info in infos_all.items():
        if info["sha"]:
            by_sha[info["sha"]].append((q, name))
    for q in queues:
        if q not in series:
            continue
        rel = check_table(q, series[q], {n: infos_all.get((q, n)) for n in series[q]})
        seen = collections.defaultdict(list)
        for name in series[q]:
            info = infos_all.get((q, name))
            if info and info["sha"]:
                seen[info["sha"]].append(name)
        for sha, names in seen.items():
            if len(names) > 1 and not all(
                    re.search(r"\b(part|half)\b", rel.get(n, "")) for n in names):
                bad("%s/%s" % (q, names[1]), "upstream commit %s is also %s: one "
                    "patch per commit, unless PROVENANCE.md says each is a "
                    "part (or half) of it" % (sha[:12], names[0]))
        for name in series[q]:
            info = infos_all.get((q, name))
            if not info or info["kind"] != "adapted" or info["sha"] not in upstream:
                continue
            p = patches[(q, name)]
            where = "%s/%s" % (q, name)
            theirs = upstream[info["sha"]]["diff"]
            ours = collections.defaultdict(list)
            for oq, on in by_sha[info["sha"]]:
                for path, lines in parse_diff(patches[(oq, on)].diff).items():
                    ours[path].extend(lines)
            para = differences_paragraph(p)
            missing = []
            queues_of_sha = {oq for oq, _ in by_sha[info["sha"]]}
            for path in sorted(set(theirs) | set(ours)):
                if path not in ours:
                    # A file no patch of this commit touches is named by
                    # the patches of the queue that would own it, or, if
                    # that queue has none, by every patch of the commit.
                    owner = queue_of(path)
                    if (owner == q or owner not in queues_of_sha) and path not in para:
                        missing.append("%s (upstream's diff changes it, no "
                                       "patch of this commit does)" % path)
                    continue
                if queue_of(path) != q:
                    continue
                if path not in theirs and path in para:
                    continue
                for ctx in sorted(compare(ours[path], theirs.get(path, []))):
                    if not named(ctx, para):
                        missing.append("%s in %s" % (ctx, path))
            for m in missing:
                bad(where, "differs from upstream's diff at %s; name it in "
                    "the \"%s\" paragraph, with why" % (m, DIFF_PARA))
    # Only the queues asked for are reported; the others were read so that a
    # commit's patches in other queues count.
    shown = [line for where, line in problems if where.split("/")[0] in queues]
    for line in shown:
        print(line)
    return 1 if shown else 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
