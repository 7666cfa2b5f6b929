/**
 * Real corpora for the scale run: eight npm packages (the ones bench/query-speed.ts
 * indexes together, ~96k chunks), each in twelve releases, newest first. Set k is
 * the k-th release of every package; each package release becomes a project.
 */
const RELEASES: Readonly<Record<string, readonly string[]>> = {
  "aws-sdk": [
    "2.1693.0",
    "2.1692.0",
    "2.1691.0",
    "2.1690.0",
    "2.1689.0",
    "2.1688.0",
    "2.1687.0",
    "2.1686.0",
    "2.1685.0",
    "2.1684.0",
    "2.1683.0",
    "2.1682.0",
  ],
  "monaco-editor": [
    "0.57.0",
    "0.56.0",
    "0.55.1",
    "0.54.0",
    "0.53.0",
    "0.52.2",
    "0.51.0",
    "0.50.0",
    "0.49.0",
    "0.48.0",
    "0.47.0",
    "0.46.0",
  ],
  typescript: [
    "5.9.3",
    "5.9.2",
    "5.8.3",
    "5.8.2",
    "5.7.3",
    "5.7.2",
    "5.6.3",
    "5.6.2",
    "5.5.4",
    "5.5.3",
    "5.5.2",
    "6.0.3",
  ],
  rxjs: [
    "7.8.2",
    "7.8.1",
    "7.8.0",
    "7.7.0",
    "7.6.0",
    "7.5.7",
    "7.5.6",
    "7.5.5",
    "7.5.4",
    "7.5.3",
    "7.5.2",
    "7.5.1",
  ],
  "date-fns": [
    "4.1.0",
    "4.0.0",
    "3.6.0",
    "3.5.0",
    "3.4.0",
    "3.3.1",
    "3.3.0",
    "3.2.0",
    "3.1.0",
    "3.0.6",
    "4.2.0",
    "4.3.0",
  ],
  "lodash-es": [
    "4.17.21",
    "4.17.20",
    "4.17.15",
    "4.17.14",
    "4.17.13",
    "4.17.12",
    "4.17.11",
    "4.17.10",
    "4.17.9",
    "4.17.8",
    "4.17.22",
    "4.17.23",
  ],
  "highlight.js": [
    "11.11.1",
    "11.11.0",
    "11.10.0",
    "11.9.0",
    "11.8.0",
    "11.7.0",
    "11.6.0",
    "11.5.1",
    "11.5.0",
    "11.4.0",
    "11.3.1",
    "11.11.2",
  ],
  three: [
    "0.187.0",
    "0.186.1",
    "0.186.0",
    "0.185.1",
    "0.185.0",
    "0.184.0",
    "0.183.2",
    "0.183.1",
    "0.183.0",
    "0.182.0",
    "0.181.2",
    "0.181.1",
  ],
};

/** Every package release, set by set: [name, version]. */
export function scaleReleases(): [string, string][] {
  const names = Object.keys(RELEASES);
  const sets = Math.max(...names.map((name) => RELEASES[name]?.length ?? 0));
  const out: [string, string][] = [];
  for (let set = 0; set < sets; set++) {
    for (const name of names) {
      const version = RELEASES[name]?.[set];
      if (version !== undefined) out.push([name, version]);
    }
  }
  return out;
}
