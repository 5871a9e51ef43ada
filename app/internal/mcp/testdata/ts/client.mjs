// The TypeScript SDK's MCP client against `airlock mcp`, for
// app/internal/mcp's TestTypeScriptClient. It starts AIRLOCK_BIN mcp on stdio,
// calls run_command once with a time limit of TIMEOUT_MS that progress
// notifications reset when RESET is "true", and prints one JSON line: the
// result, or the error, and how many progress notifications arrived.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const env = process.env;
const transport = new StdioClientTransport({
  command: env.AIRLOCK_BIN,
  args: ["mcp", "--progress-every", env.PROGRESS_EVERY],
  env: { ...env },
  stderr: "inherit",
});
const client = new Client({ name: "ts-sdk-test", version: "1" });
const out = { progress: 0, messages: [] };
try {
  await client.connect(transport);
  const res = await client.callTool(
    { name: "run_command", arguments: { argv: JSON.parse(env.ARGV) } },
    undefined,
    {
      timeout: Number(env.TIMEOUT_MS),
      resetTimeoutOnProgress: env.RESET === "true",
      onprogress: (p) => {
        out.progress++;
        if (out.messages.length < 5) out.messages.push(p.message);
      },
    },
  );
  out.isError = res.isError === true;
  out.status = res.structuredContent?.status;
  out.text = res.content.map((c) => c.text ?? "").join("");
} catch (e) {
  out.error = { code: e.code ?? null, message: String(e.message ?? e) };
} finally {
  await client.close();
}
process.stdout.write(JSON.stringify(out) + "\n");
