/** Sample sources of the code editor and the editor preview (code, not text: not translated). */
import type { CodeLanguage } from '../../kit/editors/index.tsx';

export const SAMPLES: Record<CodeLanguage, string> = {
  javascript: `// Sum of the wages of enabled records\nfunction wages(rows) {\n  return rows.filter((r) => r.status === 1).reduce((s, r) => s + r.wages, 0);\n}\n`,
  typescript: `interface Wire {\n  id: number;\n  diameter: number; // mm\n}\n\nexport function thickest(wires: readonly Wire[]): Wire | undefined {\n  return [...wires].sort((a, b) => b.diameter - a.diameter)[0];\n}\n`,
  html: `<h2>Clasp</h2>\n<p>An <strong>arrow clasp</strong> needs a double bend.</p>\n<img src="x" onerror="alert('never runs')">\n<script>alert('never runs')</script>\n`,
  markdown: `# Steps\n\n1. Straighten the models\n2. Draw the base\n3. Add the **labial bow**\n\n<script>alert('never runs')</script>\n\n[a link](https://example.com)\n`,
  json: `{\n  "gn": "1.0.0",\n  "diameters": [0.7, 0.8, 0.9]\n}\n`,
};
