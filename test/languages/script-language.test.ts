import { describe, expect, it } from "vitest";
import { languageOf } from "../../src/languages/registry.js";

describe("a file with no extension", () => {
  it("is read in the language its #! line runs", () => {
    expect(languageOf("bin/deploy", "#!/bin/sh\necho hi\n")).toBe("bash");
    expect(languageOf("bin/deploy", "#! /usr/bin/env bash\n")).toBe("bash");
    expect(languageOf("scripts/serve", "#!/usr/bin/env -S node --no-warnings\n")).toBe(
      "javascript",
    );
    expect(languageOf("manage", "#!/usr/bin/python3.11 -u\n")).toBe("python");
    expect(languageOf("tool", "#!/usr/bin/env LANG=C ruby -w\n")).toBe("ruby");
    expect(languageOf(".git/hooks/pre-commit", "#!/usr/bin/env deno run\n")).toBe("typescript");
  });

  it("stays text for a program ctx has no grammar for, or with no #! line at its top", () => {
    expect(languageOf("bin/report", "#!/usr/bin/perl\nprint 1;\n")).toBe("text");
    expect(languageOf("bin/report", "#!/usr/bin/env\n")).toBe("text");
    expect(languageOf("notes", "echo hi\n#!/bin/sh\n")).toBe("text");
    expect(languageOf("bin/deploy")).toBe("text");
  });

  it("is read in the language its editor's mode line names when it has no #! line", () => {
    expect(
      languageOf(
        "completions/git",
        "# bash completion for git    -*- shell-script -*-\n_git() {\n}\n",
      ),
    ).toBe("bash");
    expect(languageOf("tools/setup", "# -*- mode: python; coding: utf-8 -*-\nimport os\n")).toBe(
      "python",
    );
    expect(languageOf("hooks/notify", "echo hi\n\n# vim: set ft=sh ts=2:\n")).toBe("bash");
    expect(languageOf("notes", "# -*- coding: utf-8 -*-\nplain words\n")).toBe("text");
    expect(languageOf("notes", "# -*- mode: org -*-\n* heading\n")).toBe("text");
    // A #! line decides: its perl is no grammar ctx has, whatever a mode line says.
    expect(languageOf("bin/tool", "#!/usr/bin/perl\n# -*- mode: python -*-\n")).toBe("text");
  });

  it("keeps the language its extension names, whatever its #! line says", () => {
    expect(languageOf("run.py", "#!/bin/sh\n")).toBe("python");
    expect(languageOf("notes.txt", "#!/bin/sh\n")).toBe("text");
  });

  it("is read by its whole name where that name is a language's (Rakefile, .bashrc)", () => {
    expect(languageOf("Rakefile")).toBe("ruby");
    expect(languageOf("app/Gemfile", "source 'https://rubygems.org'\n")).toBe("ruby");
    expect(languageOf("lib/tasks/db.rake")).toBe("ruby");
    expect(languageOf("home/.bashrc")).toBe("bash");
    expect(languageOf("Makefile", "#!/usr/bin/make -f\n")).toBe("text");
  });
});
