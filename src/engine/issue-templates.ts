import { readdirSync } from "node:fs";
import { join } from "node:path";
import { readRegularText } from "../core/read-regular-file.js";
import type { Resource } from "../core/types.js";
import { templatePhrases } from "../text/issue-template.js";

/** Where GitHub and GitLab keep issue and pull-request templates, one file each. */
const TEMPLATE_FILES = [
  "ISSUE_TEMPLATE.md",
  "issue_template.md",
  ".github/ISSUE_TEMPLATE.md",
  ".github/issue_template.md",
  "docs/ISSUE_TEMPLATE.md",
  ".github/PULL_REQUEST_TEMPLATE.md",
  ".github/pull_request_template.md",
];
/** Folders of several templates (Markdown, or YAML issue forms). */
const TEMPLATE_FOLDERS = [
  ".github/ISSUE_TEMPLATE",
  ".github/PULL_REQUEST_TEMPLATE",
  ".gitlab/issue_templates",
  ".gitlab/merge_request_templates",
];
const MAX_TEMPLATE_BYTES = 64 * 1024;
const MAX_TEMPLATES = 32;

/**
 * The phrases of the issue and pull-request templates at the top of each
 * root, read from disk as the pinned files are (inside the root, regular
 * files, bounded): a few stat calls per query. A template that cannot be
 * read is left out; this only trims a task's boilerplate.
 */
export function issueTemplatePhrases(resources: readonly Pick<Resource, "root">[]): Set<string> {
  const texts: string[] = [];
  for (const { root } of resources) {
    const paths = [
      ...TEMPLATE_FILES,
      ...TEMPLATE_FOLDERS.flatMap((folder) => filesIn(root, folder)),
    ];
    for (const path of paths.slice(0, MAX_TEMPLATES)) {
      const read = readRegularText(join(root, path), { maxBytes: MAX_TEMPLATE_BYTES, root });
      if (read.ok) texts.push(read.text);
    }
  }
  return templatePhrases(texts);
}

function filesIn(root: string, folder: string): string[] {
  try {
    return readdirSync(join(root, folder))
      .filter((name) => /\.(md|markdown|ya?ml|txt)$/i.test(name))
      .sort()
      .map((name) => `${folder}/${name}`);
  } catch {
    return [];
  }
}
