import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../../core/graph.js";
import type { ChunkDraft, ChunkKind } from "../../core/types.js";
import { assignedFunctionName } from "../../languages/javascript-modules.js";
import type { GrammarSpec } from "../../languages/language.js";
import {
  bodyOf,
  endLine,
  functionDeclaratorName,
  isLeadingTrivia,
  nameOf,
  startLine,
} from "../../parse/syntax-nodes.js";
import type { ChunkLimits } from "./chunk-limits.js";
import { DraftBuilder } from "./draft-builder.js";
import type { LineText } from "./line-text.js";
import type { TokenMeter } from "./token-meter.js";

interface Definition {
  /** The definition node itself (inside any wrapper). */
  readonly node: Node;
  readonly kind: ChunkKind;
  readonly name: string;
  /** Lines of the wrapper and leading comments included. */
  readonly start: number;
  readonly end: number;
}

/** Functions defined inside these are methods; inside a namespace or module they stay functions. */
const METHOD_OWNERS: ReadonlySet<ChunkKind> = new Set([
  "class",
  "impl",
  "interface",
  "enum",
  "type",
]);

/** Lines of a definition shown as the header of its continuation parts. */
const MAX_SIGNATURE_LINES = 4;

/**
 * Chunks a parsed source file at its definitions: functions, classes, methods,
 * types. Classes (and other containers) with member definitions become a header
 * chunk for the declaration and one chunk per member, whose parent is the header;
 * code between definitions becomes chunks of kind `code`.
 */
export function chunkSyntaxTree(
  root: Node,
  text: LineText,
  grammar: GrammarSpec,
  limits: ChunkLimits,
  meter: TokenMeter,
): ChunkDraft[] {
  const builder = new DraftBuilder(text, limits, meter);

  const definitionOf = (
    node: Node,
    memberOf: ChunkKind | null,
  ): Omit<Definition, "start" | "end"> | null => {
    if (grammar.wrappers.has(node.type)) {
      for (const child of node.namedChildren) {
        const inner = definitionOf(child, memberOf);
        if (inner) return inner;
      }
      return null;
    }
    let kind = grammar.definitions[node.type];
    if (!kind) return null;
    let name: string;
    if (grammar.classify) {
      const classified = grammar.classify(node, kind as SymbolKind);
      // A constant is the graph's: the chunker cuts at code that does something.
      if (!classified || classified.kind === "constant") return null;
      ({ kind, name } = classified as { kind: ChunkKind; name: string });
    } else if (node.type === "lexical_declaration" || node.type === "variable_declaration") {
      const declared = functionDeclaratorName(node);
      return declared === null ? null : { node, kind: "function", name: declared };
    } else if (node.type === "assignment_expression") {
      const assigned = assignedFunctionName(node);
      return assigned === null ? null : { node, kind: "function", name: assigned };
    } else {
      name = nameOf(node);
    }
    const isMethod = kind === "function" && memberOf !== null && METHOD_OWNERS.has(memberOf);
    return { node, kind: isMethod ? "method" : kind, name };
  };

  const collect = (children: readonly Node[], memberOf: ChunkKind | null): Definition[] => {
    const found: Definition[] = [];
    children.forEach((child, index) => {
      const definition = definitionOf(child, memberOf);
      if (!definition) return;
      let start = startLine(child);
      for (let before = index - 1; before >= 0; before--) {
        const previous = children[before] as Node;
        if (!isLeadingTrivia(previous) || endLine(previous) < start - 1) break;
        start = startLine(previous);
      }
      // Two definitions on one line stay in the chunk of the first.
      const previousEnd = found[found.length - 1]?.end ?? 0;
      const next = children[index + 1];
      const end = endLine(next && grammar.trailingBodies?.has(next.type) ? next : child);
      start = Math.max(start, previousEnd + 1);
      if (end >= start) found.push({ ...definition, start, end });
    });
    return found;
  };

  const signatureOf = (definition: Definition): string => {
    const first = startLine(definition.node);
    const body = definition.node.childForFieldName("body");
    const last = body ? startLine(body) : first;
    return text.slice(first, Math.min(last, first + MAX_SIGNATURE_LINES - 1));
  };

  const gap = (start: number, end: number, parent: number | null, owner: string): void => {
    if (start > end) return;
    if (text.isBlank(start, end)) builder.blank(start, end);
    else builder.push(start, end, { kind: "code", symbol: owner, parent, continuationHeader: "" });
  };

  const emitDefinition = (definition: Definition, parent: number | null): void => {
    const header = signatureOf(definition);
    if (grammar.containers.has(definition.node.type)) {
      const body = grammar.bodyOf?.(definition.node) ?? bodyOf(definition.node);
      const members = body ? collect(body.namedChildren, definition.kind) : [];
      const firstMember = members[0];
      if (body && firstMember && firstMember.start > definition.start) {
        const index = builder.push(definition.start, firstMember.start - 1, {
          kind: definition.kind,
          symbol: definition.name,
          parent,
          continuationHeader: header,
        });
        emitBody(members, firstMember.start, definition.end, index, definition.name);
        return;
      }
    }
    builder.push(definition.start, definition.end, {
      kind: definition.kind,
      symbol: definition.name,
      parent,
      continuationHeader: header,
    });
  };

  const emitBody = (
    definitions: readonly Definition[],
    from: number,
    to: number,
    parent: number | null,
    owner: string,
  ): void => {
    let cursor = from;
    for (const definition of definitions) {
      gap(cursor, definition.start - 1, parent, owner);
      emitDefinition(definition, parent);
      cursor = definition.end + 1;
    }
    gap(cursor, to, parent, owner);
  };

  const top = grammar.topLevel?.(root) ?? root;
  emitBody(collect(top.namedChildren, null), 1, text.count, null, "");
  return builder.finish();
}
