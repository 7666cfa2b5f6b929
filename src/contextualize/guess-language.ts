/** Signals of each language in source text, for text that comes without a file name. */
const SIGNALS: readonly (readonly [
  language: string,
  extension: string,
  patterns: readonly RegExp[],
])[] = [
  [
    "rust",
    ".rs",
    [
      /\bfn\s+\w+\s*[<(]/,
      /\bimpl\b/,
      /\buse\s+(crate|std|super)::/,
      /\blet\s+mut\b/,
      /\bpub\s+(fn|struct|enum|trait)\b/,
    ],
  ],
  [
    "python",
    ".py",
    [
      /^\s*def\s+\w+\s*\(.*\)\s*(->.*)?:\s*$/m,
      /^\s*(from\s+[\w.]+\s+)?import\s+\w+/m,
      /^\s*class\s+\w+.*:\s*$/m,
      /\bself\./,
    ],
  ],
  ["go", ".go", [/^package\s+\w+\s*$/m, /\bfunc\s+(\(\w+\s+\*?\w+\)\s*)?\w+\(/, /:=/]],
  [
    "java",
    ".java",
    [
      /\bpublic\s+(final\s+)?(class|interface|enum)\b/,
      /^package\s+[\w.]+;/m,
      /\b(private|protected|public)\s+\w+(<[^>]+>)?\s+\w+\s*\(/,
      /@Override/,
    ],
  ],
  [
    "csharp",
    ".cs",
    [
      /^\s*using\s+System/m,
      /\bnamespace\s+[\w.]+/,
      /\bpublic\s+(sealed\s+|static\s+)?class\b/,
      /\{\s*get;/,
    ],
  ],
  ["cpp", ".cpp", [/#include\s*[<"]/, /\bstd::/, /\btemplate\s*</, /\w+::\w+\s*\(/]],
  ["c", ".c", [/#include\s*<\w+\.h>/, /\bstruct\s+\w+\s*\{/, /\bmalloc\(/, /\btypedef\b/]],
  [
    "typescript",
    ".ts",
    [
      /\binterface\s+\w+\s*\{/,
      /:\s*(string|number|boolean)\b/,
      /\bexport\s+(const|function|class|type)\b/,
      /\bimport\s+.*\s+from\s+["']/,
    ],
  ],
  [
    "javascript",
    ".js",
    [/\bfunction\s+\w+\s*\(/, /\bconst\s+\w+\s*=\s*(\(|require)/, /=>\s*\{/, /module\.exports/],
  ],
  [
    "ruby",
    ".rb",
    [
      /^\s*def\s+\w+[?!]?\s*$/m,
      /^\s*end\s*$/m,
      /^\s*require\s+['"]/m,
      /\battr_(reader|accessor)\b/,
    ],
  ],
  ["php", ".php", [/<\?php/, /\$this->/, /\bfunction\s+\w+\s*\(\s*\$/]],
];

/**
 * The most likely programming language of a text (and an extension for it),
 * by counting which language's signals it shows; null when none shows enough.
 */
export function guessLanguage(text: string): { language: string; extension: string } | null {
  const sample = text.slice(0, 20_000);
  let best: { language: string; extension: string; score: number } | null = null;
  for (const [language, extension, patterns] of SIGNALS) {
    const score = patterns.filter((pattern) => pattern.test(sample)).length;
    if (score >= 2 && (!best || score > best.score)) best = { language, extension, score };
  }
  return best ? { language: best.language, extension: best.extension } : null;
}
