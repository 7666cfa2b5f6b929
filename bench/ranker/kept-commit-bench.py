#!/usr/bin/env python3
"""The commit benchmark with each commit's index kept, for ranking experiments.

The benchmark's own `run` indexes every commit's parent tree and runs a `ctx`
process per query: about 25 minutes for the four repositories on this project's
machines. Ranking happens at query time, so a change to it needs only the
queries again:

  build   index each commit's parent tree as `run` makes it (the same tree, and with
          --mode history the same git checkout), one commit after another, and keep
          a copy of the index per commit: KEEP/MODE/REPO/dbs/SHA.db
  query   put each commit's tree back (history needs git for hunks), ask one
          in-process engine (kept-commit-bench-server.mjs, with the build in --dist)
          every budget, score with the benchmark's own score(); about 3 minutes.

Figures equal `commit_bench.py run` for the same build. Index with a copy of
dist/ that stays put (the build step's figures depend on index-time code too).
"""
import argparse, json, os, shutil, subprocess, sys

ACC_KS = (1, 3, 5, 10)
HERE = os.path.dirname(os.path.abspath(__file__))
REPOSITORIES = ["hono", "click", "core", "poetry", "gin", "ripgrep", "jsoup", "polly", "rack",
                "monolog", "jq", "fmt", "okio", "swift-argument-parser"]


def commits(tool, name):
    lines = tool.load_bench(os.path.join(args.bench_dir, f"{name}.jsonl"))
    lines.sort(key=lambda c: c["date"])  # as `run` does: successive parents differ little
    return lines


def folders(mode, name):
    base = os.path.join(args.keep, mode, name)
    os.makedirs(os.path.join(base, "dbs"), exist_ok=True)
    return base, os.path.join(base, "tree")


def put_tree(tool, git_dir, commit, tree):
    tool.sync_tree(git_dir, commit["parent"], tree)
    if args.mode == "history":
        tool.make_checkout(git_dir, commit["parent"], tree)


def build(tool):
    cli = os.path.join(os.path.abspath(args.dist), "cli", "main.js")  # indexing runs in the tree
    for name in args.repos:
        base, tree = folders(args.mode, name)
        db = os.path.join(base, "ctx.db")
        for commit in commits(tool, name):
            kept = os.path.join(base, "dbs", commit["sha"] + ".db")
            if os.path.exists(kept):
                continue
            put_tree(tool, git_dir(name), commit, tree)
            result = subprocess.run(["node", cli, "index", tree, "--db", db], cwd=tree,
                                    capture_output=True, text=True)
            if result.returncode:
                sys.exit(f"indexing {name} {commit['sha']} failed: {result.stderr.strip()[-300:]}")
            shutil.copyfile(db, kept + ".tmp")
            os.replace(kept + ".tmp", kept)
        print(f"{name}: indexes kept in {os.path.join(base, 'dbs')}", file=sys.stderr)


def start_server(name):
    env = {**os.environ, "CTX_DIST": os.path.abspath(args.dist)}
    if args.held_out:
        # The model trained without this repository: its figures are held-out ones.
        env["CTX_RANKING_MODEL"] = os.path.abspath(
            os.path.join(args.held_out, f"{os.path.basename(os.path.abspath(args.bench_dir))}-{name}.json"))
    return subprocess.Popen(
        ["node", os.path.join(HERE, "kept-commit-bench-server.mjs")], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, env=env)


def query(tool):
    budgets = [int(b) for b in args.budgets.split(",")]
    server = None
    table, per_commit = {}, []
    for name in args.repos:
        if server is None or args.held_out:
            if server is not None:
                server.stdin.close()
                server.wait()
            server = start_server(name)
        base, tree = folders(args.mode, name)
        rows = []
        for commit in commits(tool, name):
            kept = os.path.join(base, "dbs", commit["sha"] + ".db")
            if not os.path.exists(kept):
                sys.exit(f"no kept index for {name} {commit['sha']}: run the build step first")
            put_tree(tool, git_dir(name), commit, tree)
            db = os.path.join(base, "query.db")
            shutil.copyfile(kept, db)  # a query may write (request log, graph cache)
            ask = {"db": db, "tree": tree, "task": commit["task"], "budgets": budgets}
            if args.answers_out:
                # The rows of collect-commit-bench.ts: the --explain answer at 32k.
                ask["keep"] = {"budget": 32000, "every": args.answers_every_budget, "trace": args.answers_trace, "file": os.path.join(
                    args.answers_out, commit["repo"].replace("/", "_"), commit["sha"] + ".json")}
            server.stdin.write(json.dumps(ask) + "\n")
            server.stdin.flush()
            reply = server.stdout.readline()
            if not reply:
                sys.exit("the query server stopped (see its error above)")
            fragments = json.loads(reply)["fragments"]
            row = {"repo": commit["repo"], "sha": commit["sha"]}
            for budget in budgets:
                found = [tuple(f) for f in fragments[str(budget)]]
                row[f"file@{budget}"], row[f"line@{budget}"] = tool.score(
                    found, commit["gold_files"], commit["gold_lines"])
            # Acc@k as swe_rank.py reads it: files in the order they first appear at the largest budget.
            order = list(dict.fromkeys(f[0] for f in fragments[str(max(budgets))]))
            for k in ACC_KS:
                row[f"acc@{k}"] = float(all(g in order[:k] for g in commit["gold_files"]))
            rows.append(row)
        table[name] = rows
        per_commit.extend(rows)
    server.stdin.close()
    server.wait()
    print("| repo | n | " + " | ".join(f"file@{b // 1000}k | line@{b // 1000}k" for b in budgets) + " |")
    print("|---|---|" + "---|---|" * len(budgets))
    for name, rows in table.items():
        cells = [f"{100 * sum(r[f'{m}@{b}'] for r in rows) / len(rows):.1f}"
                 for b in budgets for m in ("file", "line")]
        print(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")
    print()
    print("| repo | n | " + " | ".join(f"Acc@{k}" for k in ACC_KS) + " |")
    print("|---|---|" + "---|" * len(ACC_KS))
    for name, rows in [*table.items(), ("all", per_commit)]:
        cells = [f"{100 * sum(r[f'acc@{k}'] for r in rows) / len(rows):.1f}" for k in ACC_KS]
        print(f"| {name} | {len(rows)} | " + " | ".join(cells) + " |")
    if args.json_out:
        with open(args.json_out, "w") as out:
            json.dump({"per_commit": per_commit}, out)


def git_dir(name):
    return os.path.join(args.git_dirs, f"{name}.git")


parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("step", choices=["build", "query"])
parser.add_argument("--mode", choices=["plain", "history"], required=True)
parser.add_argument("--bench-dir", default="../shared/commit-bench", help="the benchmark's folder (its tool and tasks)")
parser.add_argument("--keep", default="/tmp/ctx-commit-bench-kept", help="where trees and kept indexes live")
parser.add_argument("--dist", default="dist", help="the build that indexes (build) or answers (query)")
parser.add_argument("--repos", nargs="+", default=REPOSITORIES,
                    help="task files (BENCH_DIR/NAME.jsonl) to run: the commit benchmark's by default; "
                         "with --bench-dir ../shared/swe-dev, its repositories (astroid, requests, ...)")
parser.add_argument("--git-dirs", default="/tmp", help="where the bare clones of the bundles are: DIR/NAME.git")
parser.add_argument("--budgets", default="2000,8000,32000")
parser.add_argument("--json-out", help="per-commit figures, as commit_bench.py's --json-out")
parser.add_argument("--answers-out", help="keep each --explain answer at 32k here, for collect-commit-bench.ts")
parser.add_argument("--answers-every-budget", action="store_true",
                    help="also keep the plain answer at every budget (SHA@BUDGET.json), e.g. for small-fragments.mjs")
parser.add_argument("--answers-trace", action="store_true",
                    help="with --answers-every-budget, also keep every candidate of each answer and what became of it "
                         "(SHA@BUDGET.trace.json: path, first line, last line, score, outcome)")
parser.add_argument("--held-out", metavar="FOLDS",
                    help="answer each repository with the model trained without it: FOLDS/<bench folder>-REPO.json "
                         "(train-ranker writes them to bench/ranker/folds)")
args = parser.parse_args()
if args.answers_trace and not args.answers_every_budget:
    parser.error("--answers-trace keeps the candidates of the answers --answers-every-budget keeps: give both")
sys.path.insert(0, os.path.abspath(args.bench_dir))
import commit_bench  # noqa: E402  (the benchmark's own tree making and scoring)

build(commit_bench) if args.step == "build" else query(commit_bench)
