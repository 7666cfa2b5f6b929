import type { GraphReference, ReferenceKind } from "../../core/graph.js";

/** `graph_references.kind` of a call made on something (`GraphReference.member`). */
export const MEMBER_CALL = "call.member";

/** The kind column's value for a reference. */
export function storedKind(reference: GraphReference): string {
  return reference.member ? MEMBER_CALL : reference.kind;
}

/** A reference as read back from its row. */
export function storedReference(name: string, kind: string, lines: number[]): GraphReference {
  return kind === MEMBER_CALL
    ? { name, kind: "call", lines, member: true }
    : { name, kind: kind as ReferenceKind, lines };
}

/** The kind a reference shows (`ctx refs`): a call, made on something or not. */
export function shownKind(kind: string): ReferenceKind {
  return kind === MEMBER_CALL ? "call" : (kind as ReferenceKind);
}
