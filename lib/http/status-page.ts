/** The small page at `/`: what this is and how to connect an MCP client. No secrets, no state. */
export function statusPage(firmwareVersion: string, toolCount: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Halo</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}code{background:#eee;padding:0 .2em}</style>
</head><body>
<h1>Halo</h1>
<p id="status">Running firmware <code>${escapeHtml(firmwareVersion)}</code> with <span id="tool-count">${toolCount}</span> tools.</p>
<p>MCP endpoint: <code>POST /mcp</code> (Streamable HTTP, JSON responses). Send <code>Authorization: Bearer &lt;token&gt;</code>;
the owner token is in <code>admin-token</code> in the device's data folder.</p>
</body></html>
`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => "&#" + c.charCodeAt(0) + ";");
}
