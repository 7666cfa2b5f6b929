import { z } from "zod";
import { visibleLine, visibleText } from "../../text/visible-text.js";
import { text } from "../tool-result.js";
import type { ToolContext } from "./tool-context.js";

/** `read_fragment`: read a fragment or file range. */
export function registerReadFragment({ server, engine, guarded }: ToolContext): void {
  server.registerTool(
    "read_fragment",
    {
      title: "Read a fragment or file range",
      description:
        "The current text of a fragment (by the id search or get_context gave) or of a line range of a file inside the project that the index reads (ignored files, .git/, dependencies and binary files are refused). Paths are relative to the project root.",
      inputSchema: {
        id: z
          .string()
          .max(2000)
          .optional()
          .describe("A fragment id like src/app.ts#L10-L40, as search or get_context gave it."),
        path: z
          .string()
          .max(1000)
          .optional()
          .describe("A file path relative to the project root (when no id)."),
        start_line: z.number().int().min(1).optional().describe("First line, 1-based (default 1)."),
        end_line: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("Last line, inclusive (default: end of file)."),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) =>
      guarded(async () => {
        const address = args.id
          ? { id: args.id }
          : {
              path: args.path ?? "",
              ...(args.start_line ? { startLine: args.start_line } : {}),
              ...(args.end_line ? { endLine: args.end_line } : {}),
            };
        const fragment = await engine.readFragment(address);
        // As in get_context's answers: a name stays one line, and control characters show as escapes.
        return text(
          `${visibleLine(fragment.path)}:${fragment.startLine}-${fragment.endLine}\n${visibleText(fragment.text)}`,
        );
      }, extra),
  );
}
