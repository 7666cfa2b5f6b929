/** How both stores keep the identifiers a commit's diff touched, in one text column. */

/** Stored for a sweep: a commit whose diff touched too many identifiers to say anything. */
export const SWEEP = "*";

/** The names of a stored list ("" when the diff touched none). */
export function namesOf(stored: string): string[] {
  return stored === "" ? [] : stored.split(" ");
}
