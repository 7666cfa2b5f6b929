import { describe, expect, it } from "vitest";
import { graphFileKey } from "../../../src/core/graph.js";
import type { DocumentToStore, Store } from "../../../src/core/store.js";
import { STORE_ADAPTER_ROWS, type StoreAdapter } from "../../helpers/store-adapters.js";
import { document } from "../../helpers/store-documents.js";

describe.each(STORE_ADAPTER_ROWS)(
  "the GraphBackend contract: the code graph: symbols, references and whole-file reads (%s)",
  (_name, adapter: StoreAdapter) => {
    const fresh = async (): Promise<Store> => adapter.place().open();

    it("reads the graph rows written after a generation, and those of the files using given names", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const withGraph = (path: string, defines: string, uses: string): DocumentToStore => ({
        ...document(resource.id, path, `function ${defines}() { ${uses}(); }`),
        graph: {
          definitions: [
            {
              name: defines,
              kind: "function",
              startLine: 1,
              endLine: 1,
              parent: "",
              signature: "",
            },
          ],
          references: [{ name: uses, kind: "call", lines: [1] }],
          imports: [],
        },
      });
      await store.documents.writeDocuments([
        withGraph("src/a.ts", "alpha", "beta"),
        withGraph("src/b.ts", "beta", "alpha"),
      ]);
      const before = await store.graph.graphGeneration();
      await store.documents.writeDocuments([withGraph("src/c.ts", "gamma", "beta")]);
      await store.documents.writeDocuments([withGraph("src/a.ts", "alpha", "gamma")]);
      const since = await store.graph.loadGraphSince(before, 10);
      expect(since.generation).toBe(await store.graph.graphGeneration());
      expect(since.files.map((file) => file.path)).toEqual(["src/a.ts", "src/b.ts", "src/c.ts"]);
      expect(since.written?.map((file) => [file.path, file.references.map((r) => r.name)])).toEqual(
        [
          ["src/a.ts", ["gamma"]],
          ["src/c.ts", ["beta"]],
        ],
      );
      expect((await store.graph.loadGraphSince(since.generation, 10)).written).toEqual([]);
      expect((await store.graph.loadGraphSince(before, 1)).written).toBeNull();
      const users = await store.graph.loadGraphReferencing(["beta", "delta"]);
      expect(users.map((file) => file.path)).toEqual(["src/c.ts"]);
      expect(users[0]?.definitions.map((d) => d.name)).toEqual(["gamma"]);
      const all = (await store.graph.loadGraph()).files;
      expect(users[0]).toEqual(all.find((file) => file.path === "src/c.ts"));
      expect((await store.stats()).graph).toEqual({
        definitions: 3,
        references: 3,
        imports: 0,
        orphans: 0,
      });
    });

    it("keeps whether a call was made on something, and shows either as a call", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const references = [
        { name: "run", kind: "call" as const, lines: [1] },
        { name: "run", kind: "call" as const, lines: [2, 3], member: true },
      ];
      await store.documents.writeDocuments([
        {
          ...document(resource.id, "src/jobs.ts", "run();\njob.run();\nthis.run();"),
          graph: {
            definitions: [
              {
                name: "run",
                kind: "function",
                startLine: 1,
                endLine: 1,
                parent: "",
                signature: "",
              },
            ],
            references,
            imports: [],
          },
        },
      ]);
      expect((await store.graph.loadGraph()).files[0]?.references).toEqual(references);
      expect(await store.graph.findReferences("run")).toEqual([
        { path: "src/jobs.ts", line: 1, kind: "call" },
        { path: "src/jobs.ts", line: 2, kind: "call" },
        { path: "src/jobs.ts", line: 3, kind: "call" },
      ]);
      // `run(); job.run();` on one line: one call there.
      await store.documents.writeDocuments([
        {
          ...document(resource.id, "src/jobs.ts", "run(); job.run();"),
          graph: {
            definitions: [
              {
                name: "run",
                kind: "function",
                startLine: 1,
                endLine: 1,
                parent: "",
                signature: "",
              },
            ],
            references: [
              { name: "run", kind: "call", lines: [1] },
              { name: "run", kind: "call", lines: [1], member: true },
            ],
            imports: [],
          },
        },
      ]);
      expect(await store.graph.findReferences("run")).toEqual([
        { path: "src/jobs.ts", line: 1, kind: "call" },
      ]);
    });

    it("finds symbols and the references that resolve to a definition through imports", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const file = (path: string, graph: DocumentToStore["graph"]): DocumentToStore => ({
        ...document(resource.id, path, `// ${path}`),
        graph,
      });
      await store.documents.writeDocuments([
        file("src/util.ts", {
          definitions: [
            {
              name: "parseConfig",
              kind: "function",
              startLine: 1,
              endLine: 3,
              parent: "",
              signature: "function parseConfig()",
            },
          ],
          references: [],
          imports: [],
        }),
        file("src/other.ts", {
          definitions: [
            {
              name: "parseConfig",
              kind: "function",
              startLine: 5,
              endLine: 6,
              parent: "",
              signature: "",
            },
          ],
          references: [{ name: "parseConfig", kind: "call", lines: [9] }],
          imports: [],
        }),
        file("src/app.ts", {
          definitions: [],
          references: [{ name: "parseConfig", kind: "call", lines: [4, 8] }],
          imports: [
            {
              specifier: "./util",
              line: 1,
              names: ["parseConfig"],
              targets: [{ path: "src/util.ts", match: "exact" }],
              reexport: false,
            },
          ],
        }),
      ]);
      expect(
        (await store.graph.findSymbols({ name: "parseConfig", limit: 10 })).map((s) => [
          s.path,
          s.startLine,
        ]),
      ).toEqual([
        ["src/other.ts", 5],
        ["src/util.ts", 1],
      ]);
      expect((await store.graph.findSymbols({ name: "PARSECONFIG", limit: 10 })).length).toBe(2);
      expect(
        (await store.graph.findSymbols({ name: "parse*", path: "src/util.ts", limit: 10 })).map(
          (s) => s.signature,
        ),
      ).toEqual(["function parseConfig()"]);
      expect(await store.graph.findReferences("parseConfig", "src/util.ts")).toEqual([
        { path: "src/app.ts", line: 4, kind: "call" },
        { path: "src/app.ts", line: 8, kind: "call" },
      ]);
      expect((await store.graph.findReferences("parseConfig")).length).toBe(3);
    });

    it("resolves a call made on something to the one class that defines the method", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const definition = (name: string, parent: string, line: number) => ({
        name,
        kind: parent ? ("method" as const) : ("function" as const),
        startLine: line,
        endLine: line + 2,
        parent,
        signature: `def ${name}(self)`,
      });
      await store.documents.writeDocuments([
        {
          ...document(resource.id, "src/flask/app.py", "class Flask: ..."),
          graph: { definitions: [definition("url_for", "Flask", 10)], references: [], imports: [] },
        },
        {
          // The module-level url_for calls the app's: `current_app.url_for(…)`.
          ...document(resource.id, "src/flask/helpers.py", "def url_for(): ..."),
          graph: {
            definitions: [definition("url_for", "", 3)],
            references: [{ name: "url_for", kind: "call", lines: [4], member: true }],
            imports: [],
          },
        },
        {
          ...document(resource.id, "src/flask/views.py", "from .helpers import url_for"),
          graph: {
            definitions: [],
            references: [
              { name: "url_for", kind: "import", lines: [1] },
              { name: "url_for", kind: "call", lines: [7] },
            ],
            imports: [
              {
                specifier: ".helpers",
                line: 1,
                names: ["url_for"],
                targets: [{ path: "src/flask/helpers.py", match: "exact" }],
                reexport: false,
              },
            ],
          },
        },
      ]);
      expect(await store.graph.findReferences("url_for", "src/flask/app.py")).toEqual([
        { path: "src/flask/helpers.py", line: 4, kind: "call" },
      ]);
      expect(await store.graph.findReferences("url_for", "src/flask/helpers.py")).toEqual([
        { path: "src/flask/views.py", line: 1, kind: "import" },
        { path: "src/flask/views.py", line: 7, kind: "call" },
      ]);
    });

    it("keeps each definition's doc comment, replaced with its file", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const documented = (doc: string): DocumentToStore => ({
        ...document(resource.id, "src/refunds.ts", "function settle() {}"),
        graph: {
          definitions: [
            {
              name: "settle",
              kind: "function",
              startLine: 1,
              endLine: 1,
              parent: "",
              signature: "",
              doc,
            },
            {
              name: "helper",
              kind: "function",
              startLine: 2,
              endLine: 2,
              parent: "",
              signature: "",
            },
          ],
          references: [],
          imports: [],
        },
      });
      const docs = async () =>
        Object.fromEntries(
          (await store.graph.findSymbols({ name: "*", limit: 10 })).map((d) => [d.name, d.doc]),
        );
      await store.documents.writeDocuments([documented("Pays back what a customer owes.")]);
      expect(await docs()).toEqual({ settle: "Pays back what a customer owes.", helper: "" });
      await store.documents.writeDocuments([documented("Closes the books.")]);
      expect(await docs()).toEqual({ settle: "Closes the books.", helper: "" });
    });

    it("gives back the graph rows a caller holds where the stored file has the same hash", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const defining = (path: string, name: string): DocumentToStore => ({
        ...document(resource.id, path, `function ${name}() {}`),
        graph: {
          definitions: [
            { name, kind: "function", startLine: 1, endLine: 1, parent: "", signature: "" },
          ],
          references: [],
          imports: [],
        },
      });
      const a = defining("src/a.ts", "alpha");
      const b = defining("src/b.ts", "beta");
      await store.documents.writeDocuments([a, b]);
      const stored = (await store.graph.loadGraph()).files;
      const held = (doc: DocumentToStore, name: string) => ({
        hash: doc.hash,
        record: {
          resourceId: doc.resourceId,
          path: doc.path,
          language: doc.language,
          definitions: [
            {
              name,
              kind: "function" as const,
              startLine: 1,
              endLine: 1,
              parent: "",
              signature: "",
            },
          ],
          references: [],
          imports: [],
        },
      });
      const known = new Map([
        [graphFileKey(a), held(a, "alphaHeld")],
        [graphFileKey(b), { ...held(b, "betaHeld"), hash: "other content" }],
      ]);
      const loaded = await store.graph.loadGraph(known);
      expect(loaded.generation).toBe(await store.graph.graphGeneration());
      expect(loaded.files.map((file) => file.definitions.map((d) => d.name))).toEqual([
        ["alphaHeld"],
        ["beta"],
      ]);
      expect(loaded.files[1]).toEqual(stored[1]);
      const removed = (await store.documents.listDocuments(resource.id)).find(
        (d) => d.path === "src/a.ts",
      );
      await store.documents.removeDocuments([removed?.id ?? -1]);
      expect((await store.graph.loadGraph(known)).files.map((file) => file.path)).toEqual([
        "src/b.ts",
      ]);
    });

    it("finds a name's uses exactly, whatever its characters or case, and forgets them with their file", async () => {
      const store = await fresh();
      const resource = await store.documents.ensureResource("/repo", "git");
      const using = (path: string, names: string[]): DocumentToStore => ({
        ...document(resource.id, path, names.join("\n")),
        graph: {
          definitions: [],
          references: names.map((name, index) => ({ name, kind: "call", lines: [index + 1] })),
          imports: [],
        },
      });
      const uses = async (name: string) =>
        (await store.graph.findReferences(name)).map((r) => `${r.path}:${r.line}`);
      await store.documents.writeDocuments([
        using("lib/a.rb", ["empty?", "Größe", "Vector3", "$el"]),
        using("lib/b.rb", ["empty", "größe", "vector3", "el"]),
      ]);
      expect(await uses("empty?")).toEqual(["lib/a.rb:1"]);
      expect(await uses("empty")).toEqual(["lib/b.rb:1"]);
      expect(await uses("Größe")).toEqual(["lib/a.rb:2"]);
      expect(await uses("Vector3")).toEqual(["lib/a.rb:3"]);
      expect(await uses("vector3")).toEqual(["lib/b.rb:3"]);
      expect(await uses("$el")).toEqual(["lib/a.rb:4"]);
      expect(await uses("missing")).toEqual([]);
      // Rewritten without the name, and removed: the name leads nowhere.
      await store.documents.writeDocuments([using("lib/a.rb", ["other"])]);
      expect(await uses("Vector3")).toEqual([]);
      expect(await uses("other")).toEqual(["lib/a.rb:1"]);
      const [b] = (await store.documents.listDocuments(resource.id)).filter(
        (d) => d.path === "lib/b.rb",
      );
      await store.documents.removeDocuments([b?.id ?? -1]);
      expect(await uses("vector3")).toEqual([]);
      expect((await store.stats()).graph).toEqual({
        definitions: 0,
        references: 1,
        imports: 0,
        orphans: 0,
      });
    });
  },
);
