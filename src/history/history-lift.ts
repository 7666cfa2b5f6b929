import type { MessageSupport } from "./message-support.js";

/** What the history adds to a hit's score, and why (for `--explain`). */
export interface HistoryLift {
  readonly score: number;
  readonly reasons: readonly string[];
}

const NO_LIFT: HistoryLift = { score: 0, reasons: [] };
/** A subject quoted in a reason is cut to this. */
const SUBJECT_CHARS = 60;

/**
 * A file's lift from changing together with the best hits' files and from
 * past commits worded like the task, each at its weight; keys are
 * `resourceId\0path`.
 */
export function historyLifts(
  partners: ReadonlyMap<string, number> | null,
  partnerWeight: number,
  messages: ReadonlyMap<string, MessageSupport> | null,
  messageWeight: number,
): (key: string) => HistoryLift {
  return (key) => {
    const together = partnerWeight * (partners?.get(key) ?? 0);
    const message = messages?.get(key);
    const worded = messageWeight * (message?.support ?? 0);
    if (together <= 0 && worded <= 0) return NO_LIFT;
    const reasons: string[] = [];
    if (together > 0)
      reasons.push(`changes together with the best hits' files +${round(together)}`);
    if (message && worded >= 0.005) {
      const subjects = message.subjects.map((subject) => `"${cut(subject)}"`).join(", ");
      reasons.push(`changed by past commits worded like the task +${round(worded)}: ${subjects}`);
    }
    return { score: together + worded, reasons };
  };
}

function round(value: number): string {
  return value.toFixed(2);
}

function cut(subject: string): string {
  return subject.length <= SUBJECT_CHARS ? subject : `${subject.slice(0, SUBJECT_CHARS - 1)}…`;
}
