import { describe, expect, it } from "vitest";
import { templatePhrases, withoutTemplateLines } from "../../src/text/issue-template.js";
import { indexedEngine } from "../helpers/indexed-engine.js";
import { tempDir, writeFiles } from "../helpers/temp-dir.js";

const BUG_REPORT = `---
name: Bug report
about: Create a report to help us improve
labels: bug
---

**Describe the bug**
A clear and concise description of what the bug is.

**Expected behavior**
A clear and concise description of what you expected to happen.

**Screenshots**
If applicable, add screenshots to help explain your problem.

**Additional context**
Add any other context about the problem here.
`;

/** A GitHub issue form: its labels are what the issue's headings say. */
const BUG_FORM = `name: Bug report
description: Report a problem
body:
  - type: textarea
    attributes:
      label: What Happened
  - type: textarea
    attributes:
      label: Expected Behaviour
  - type: checkboxes
    attributes:
      label: Code of Conduct
      options:
        - label: I agree to follow this project's Code of Conduct
`;

const ISSUE = `Titles overflow
**Describe the bug**
Long titles overflow the card.

**Expected behavior**
A clear and concise description of what you expected to happen.

**Screenshots**
**Additional context**
Add any other context about the problem here.`;

describe("issue templates", () => {
  it("leaves out of a task the lines its project's templates hold, Markdown or form", () => {
    const phrases = templatePhrases([BUG_REPORT, BUG_FORM]);
    expect(withoutTemplateLines(ISSUE, phrases)).toBe(
      "Titles overflow\nLong titles overflow the card.\n\n",
    );
    const form = [
      "### What Happened",
      "sqlfluff fix drops the comment after a CTE",
      "### Expected Behaviour",
      "the comment stays",
      "### Code of Conduct",
      "- [X] I agree to follow this project's Code of Conduct",
    ].join("\n");
    expect(withoutTemplateLines(form, phrases)).toBe(
      "sqlfluff fix drops the comment after a CTE\nthe comment stays",
    );
    // A task made only of a template's words is still what was asked; no templates, no change.
    expect(withoutTemplateLines("**Describe the bug**", phrases)).toBe("**Describe the bug**");
    expect(withoutTemplateLines(ISSUE, new Set())).toBe(ISSUE);
  });

  it("answers an issue written in the template with the code it is about alone", async () => {
    const root = tempDir();
    writeFiles(root, {
      ".github/ISSUE_TEMPLATE/bug_report.md": BUG_REPORT,
      "src/context.js":
        "// Describe a bug report: a clear and concise description of the problem, what you\n// expected to happen, screenshots if applicable to explain it, additional context.\nexport function describeBug(problem) {\n  return { problem, context: 'additional context', expected: 'behavior', screenshots: [] };\n}\n",
      "src/wrap.js":
        "// Break long titles so the card does not overflow.\nexport function wrapText(name, width) {\n  const words = name.split(' ');\n  return words.flatMap((word) => (word.length > width ? chunk(word, width) : [word]));\n}\n",
    });
    const engine = await indexedEngine(root);
    const result = await engine.query({ task: ISSUE, budget: 400 });
    const paths = result.fragments.map((fragment) =>
      fragment.source.kind === "file" ? fragment.source.path : "",
    );
    // The template's words matched the template and the code that repeats them; the
    // issue's own words match only the code it is about.
    expect(paths).toEqual(["src/wrap.js"]);
    // What the user asked is shown as asked.
    expect(result.task).toBe(ISSUE);
  });
});
