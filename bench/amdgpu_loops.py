"""The loops of an AMDGPU assembly listing, for bench/gfx942_matmul.py.

blocks(asm) gives each instruction of a kernel with the loop it is in:
from LLVM's loop comments on block labels where the listing has them
(verbose assembly, Triton's), else from its control flow (ktc's listing
has no comments): basic blocks, dominators and the natural loop of each
back edge. On the 12 Triton kernels of docs/bench/gfx942-matmul-vs-triton.md
both ways give the same loops.
"""
import collections, re


def blocks(asm):
    """The kernel's instructions as (loop header or None, depth, text) per
    line: LLVM's comments on each block label say which loop it is in (in
    verbose assembly, Triton's); without them (ktc's), each backward branch
    closes a loop from its target's label, an instruction being in the
    innermost loop around it."""
    if "Loop Header:" not in asm:
        return blocks_by_branches(asm)
    out, header, depth = [], None, 0
    for line in asm.splitlines():
        label = re.match(r"^(\.LBB\w+:|; %bb\.\d+:)(.*)", line)
        if label:
            head = re.search(r"=>This (?:Inner )?Loop Header: Depth=(\d+)", label.group(2))
            inside = re.search(r"in Loop: Header=(\w+) Depth=(\d+)", label.group(2))
            if head:
                header, depth = label.group(1).lstrip(".").rstrip(":").replace("LBB", "BB"), int(head.group(1))
            elif inside:
                header, depth = inside.group(1), int(inside.group(2))
            else:
                header, depth = None, 0
            continue
        if line.startswith("\t") and not line.strip().startswith((".", ";", "//")) and line.strip():
            out.append((header, depth, line.strip()))
    return out


def blocks_by_branches(asm):
    """blocks() from the control flow: basic blocks split at labels and after
    branches, a natural loop for each branch to a block that dominates it
    (the blocks that reach the branch without passing its target), each
    instruction in the smallest loop that holds its block."""
    bbs = [["entry", []]]  # [label, [instruction, ...]]
    for line in asm.splitlines():
        label = re.match(r"^\.(LBB\w+):", line)
        if label:
            bbs.append([label.group(1), []])
        elif line.startswith("\t") and line.strip() and \
                not line.strip().startswith((".", ";", "//")):
            bbs[-1][1].append(line.strip())
            if re.match(r"s_(c?branch|endpgm|setpc)", line.strip()):
                bbs.append([None, []])  # what follows is another block
    index = {name: i for i, (name, _) in enumerate(bbs) if name}
    succ = collections.defaultdict(set)
    for i, (_, code) in enumerate(bbs):
        last = code[-1] if code else ""
        target = re.match(r"s_c?branch\w*\s+\.(LBB\w+)", last)
        if target and target.group(1) in index:
            succ[i].add(index[target.group(1)])
        if i + 1 < len(bbs) and not re.match(r"s_(branch|endpgm|setpc)\b", last):
            succ[i].add(i + 1)
    pred = collections.defaultdict(set)
    for i, out in succ.items():
        for j in out:
            pred[j].add(i)
    reachable, work = {0}, [0]
    while work:
        for j in succ[work.pop()]:
            if j not in reachable:
                reachable.add(j)
                work.append(j)
    for i in list(pred):
        pred[i] &= reachable
    # Dominators (iteratively): a back edge goes to a block dominating it.
    every = set(range(len(bbs)))
    dom = {i: ({0} if i == 0 else set(every)) for i in every}
    changed = True
    while changed:
        changed = False
        for i in range(1, len(bbs)):
            if not pred[i]:  # unreachable (after a branch): as if dominated by all
                continue
            new = {i} | set.intersection(*(dom[p] for p in pred[i]))
            if new != dom[i]:
                dom[i], changed = new, True
    loops = []  # (header, set of blocks)
    for latch, out in list(succ.items()):
        if latch not in reachable:
            continue
        for header in out:
            if header not in dom[latch]:
                continue
            body, work = {header, latch}, [latch]
            while work:
                for p in pred[work.pop()]:
                    if p not in body:
                        body.add(p)
                        work.append(p)
            loops.append((header, body))
    out = []
    for i, (_, code) in enumerate(bbs):
        around = [l for l in loops if i in l[1]]
        inner = min(around, key=lambda l: len(l[1]), default=None)
        name = f"BB{bbs[inner[0]][0]}" if inner else None
        out += [(name, len(around), text) for text in code]
    return out
