import { InvalidArgumentError } from "commander";

/** Commander parser for a positive whole number flag. */
export function positiveInteger(value: string): number {
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0) {
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  }
  return number;
}

/** Commander parser for a comma-separated list of positive whole numbers (`5,10,20`). */
export function positiveIntegerList(value: string): number[] {
  const parts = value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length === 0)
    throw new InvalidArgumentError(`expected numbers like 5,10,20, got "${value}"`);
  return [...new Set(parts.map(positiveInteger))].sort((a, b) => a - b);
}

/** Commander collector for a repeatable flag. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
