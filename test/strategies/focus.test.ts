import { describe, expect, it } from "vitest";
import type { QueryResult } from "../../src/engine/engine-options.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

/**
 * A web framework's shape: the transport and its helpers say "timeout" and
 * "option" everywhere; the test client, where the user works, says them once,
 * and hands its options to the app's dispatcher.
 */
function framework(): string {
  const root = tempDir();
  const helpers = Array.from(
    { length: 12 },
    (_, i) =>
      `def timeout_option_${i}(value):\n    """Read the timeout option ${i} of a connection: a timeout in seconds, or None for no timeout."""\n    return parse_timeout(value, option=${i})\n`,
  ).join("\n\n");
  writeFiles(root, {
    "shop/transport.py": `${helpers}\n\ndef parse_timeout(value, option):\n    """Parse a timeout option."""\n    return float(value) if value else None\n`,
    "shop/errors.py":
      'class Timeout(Exception):\n    """The request timed out: the timeout option was exceeded."""\n\n\nclass ConnectTimeout(Timeout):\n    """Connecting took longer than the connect timeout option."""\n',
    "shop/app.py":
      'class App:\n    def dispatch(self, path, options):\n        """Route a request to its view with the given options."""\n        view = self.routes[path]\n        return view(**options)\n',
    "shop/testing.py":
      'from shop.app import App\n\n\nclass ShopClient:\n    """Sends requests to the app without a server."""\n\n    def __init__(self, app: App):\n        self.app = app\n\n    def open(self, path, **kwargs):\n        """Open a request against the app with these options."""\n        return self.app.dispatch(path, kwargs)\n\n    def close(self):\n        self.app = None\n',
  });
  return root;
}

const TASK = "add a timeout option";

describe("--focus", () => {
  it("brings the focus's code that matches the task, and what it calls, ahead of better matches elsewhere", async () => {
    const engine = await indexedEngine(framework());
    const paths = (result: QueryResult) =>
      result.fragments.map((fragment) =>
        fragment.source.kind === "file" ? fragment.source.path : "",
      );
    const plain = await engine.query({ task: TASK, budget: 500 });
    expect(paths(plain)).not.toContain("shop/testing.py");

    for (const focus of ["shop/testing.py", "ShopClient", "ShopClient.open"]) {
      const focused = await engine.query({ task: TASK, budget: 500, focus: [focus] });
      expect(focused.unknownFocus, focus).toEqual([]);
      const first = focused.fragments[0];
      expect(first?.source, focus).toMatchObject({ path: "shop/testing.py" });
      expect(first?.content, focus).toContain("def open(self, path, **kwargs):");
    }
    const file = await engine.query({ task: TASK, budget: 800, focus: ["shop/testing.py"] });
    expect(paths(file)).toContain("shop/app.py");
    // The focus leads; the task's best matches elsewhere still follow it.
    expect(paths(file)).toContain("shop/errors.py");
  });

  it("names an owner-qualified focus it cannot find", async () => {
    const engine = await indexedEngine(framework());
    const result = await engine.query({
      task: TASK,
      budget: 500,
      focus: ["App.open", "ShopClient.open"],
    });
    expect(result.unknownFocus).toEqual(["App.open"]);
  });
});
