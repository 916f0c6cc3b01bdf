// What the automatic design reports with the design it stored (getDesignData's aiReport):
// per prescribed wire, placed or left out with its code and tooth; per jaw with a base, whether it
// was generated, its slots, and the tags the base holds short. The built-in engine's report
// (autodesign.ts) less its diagnostics; an outside AI service may send the same (docs/ai-vendor.md).
// Pure, without zod (the browser reads it); the server's schema is ai-request.ts aiReportSchema.
import type { AutodesignBaseReport, AutodesignSlotReport, AutodesignWireReport } from './autodesign.ts';

/** One prescribed wire: placed (its design wire id) or failed (code, tooth, English message). */
export type AiWireReport = Pick<AutodesignWireReport, 'wireId' | 'jaw' | 'type' | 'teeth' | 'status' | 'code' | 'tooth' | 'message' | 'tipUndercut' | 'dieRadius'>;

/** One jaw's base: generated or failed (a code of the base kernel's), its slots, its tags held short. */
export interface AiBaseReport extends Pick<AutodesignBaseReport, 'jaw' | 'status' | 'message' | 'tags'> {
  code?: string;
  slots: (Pick<AutodesignSlotReport, 'wireId' | 'status'> & { code?: string })[];
}

export interface AiReport {
  wires: AiWireReport[];
  bases: AiBaseReport[];
}

/** The report kept with an order: the design version it came with (design_data.version). */
export interface AiReportRecord {
  orderId: number;
  version: number;
  report: AiReport;
  createTime: string;
}

/** Bounds of a report (an outside service's is outside input): entries and text. */
export const AI_REPORT_LIMITS = { wires: 200, bases: 2, slots: 200, tags: 200, message: 500, code: 40, id: 64 } as const;
