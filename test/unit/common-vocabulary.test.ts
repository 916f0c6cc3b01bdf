// The product's vocabulary has one definition (common/), and every world reads that one: the
// editor, the workers and the server hold the same objects, not copies that could drift.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as program from '../../common/bend-program.ts';
import { type BendRequest, bendWireSchema, wireTypeSchema } from '../../common/bend-request.ts';
import { Code, CODE_OK } from '../../common/codes.ts';
import { DESIGN_MAX_BYTES, DESIGN_SCHEMA_VERSION } from '../../common/design.ts';
import { designSaveSchema } from '../../common/design-request.ts';
import { springbackRowsSchema } from '../../common/device-request.ts';
import { JOB_STATES, NOT_STARTED, UNFINISHED } from '../../common/device-jobs.ts';
import { AI_STATUS, ORDER_STATUS } from '../../common/orders.ts';
import { SPRINGBACK_LIMITS, springbackTableProblem } from '../../common/springback.ts';
import * as wires from '../../common/wires.ts';
import * as document from '../../src/editor/engine/document.ts';
import { CODE_OK as CLIENT_CODE_OK } from '../../src/api/http.ts';
import type { BendBody } from '../../src/editor/device/types.ts';
import * as checks from '../../workers/kernels/bend-checks.ts';
import * as bend from '../../workers/kernels/bend.ts';
import * as springback from '../../workers/kernels/bend-springback.ts';
import * as slotMessages from '../../workers/kernels/slot-messages.ts';
import { Code as ServerCode } from '../../server/core/envelope.ts';
import { DESIGN_MAX_BYTES as SERVER_MAX_BYTES, MAX_SCHEMA_VERSION } from '../../server/modules/design/index.ts';
import * as orderStatus from '../../server/modules/order/status.ts';
import * as jobs from '../../server/modules/device-hub/jobs.ts';

describe('common/wires', () => {
  it('is the list of the editor, the bend checks and the slot worker', () => {
    expect(wires.WIRE_TYPES).toEqual(['labialBow', 'singleArmClasp', 'arrowClasp', 'wraparoundBow']);
    expect(document.WIRE_TYPES).toBe(wires.WIRE_TYPES);
    expect(program.WIRE_TYPES).toBe(wires.WIRE_TYPES);
    expect(slotMessages.SLOTTABLE_WIRE_TYPES).toBe(wires.SLOTTABLE_WIRE_TYPES);
    expect(slotMessages.SLOT_MESSAGES).toBe(wires.SLOT_MESSAGES);
    expect(wires.SLOTTABLE_WIRE_TYPES.every((t) => wires.isWireType(t))).toBe(true);
  });

  it("the editor's bend body takes what the server's schemas accept", () => {
    const request: BendRequest = { deviceId: 1, wire: { type: 'labialBow', diameter: 0.8 }, steps: [{ feed: 1, rotate: 0, bend: 0 }] };
    // Compile-time: a request the schemas accept is a body the editor can send.
    const body: BendBody = request;
    expect(bendWireSchema.parse(body.wire)).toEqual({ type: 'labialBow', diameter: 0.8 });
  });

  it('checks a value against the list', () => {
    expect(wires.isWireType('arrowClasp')).toBe(true);
    expect(wires.isWireType('Arrow clasp')).toBe(false);
    expect(wires.isWireType(null)).toBe(false);
    expect(wireTypeSchema.safeParse('wraparoundBow').success).toBe(true);
    expect(bendWireSchema.safeParse({ type: 'hyraxScrew', diameter: 0.8 }).success).toBe(false);
    expect(wires.WIRE_TYPE_LABELS.labialBow.de).toBe('Labialbogen');
    expect(wires.isWireType('custom')).toBe(false);
  });

  // The client translates the names with Lingui (msg`Labial bow`): its catalogs must say what
  // WIRE_TYPE_LABELS says, in every language.
  it.each(['en', 'zh', 'de'] as const)('display names agree with the %s catalog', (lang) => {
    const po = readFileSync(new URL(`../../src/locales/${lang}/messages.po`, import.meta.url), 'utf8');
    for (const type of wires.WIRE_TYPES) {
      const { en } = wires.WIRE_TYPE_LABELS[type];
      const entry = new RegExp(`\\nmsgid "${en}"\\nmsgstr "([^"]*)"`).exec(po);
      expect(entry, `${lang}: msgid "${en}"`).not.toBeNull();
      expect(entry![1]).toBe(wires.WIRE_TYPE_LABELS[type][lang]);
    }
  });
});

describe('common/bend-program and common/springback', () => {
  it('are what the bend kernels use and export', () => {
    expect(checks.BEND_MESSAGES).toBe(program.BEND_MESSAGES);
    expect([checks.WIRE_END_MIN, checks.WIRE_END_MAX, checks.WRAPAROUND_FIRST_MAX]).toEqual([5, 100, 30]);
    expect(bend.DEFAULT_HEAD).toBe(program.DEFAULT_HEAD);
    expect(springback.springbackTableProblem).toBe(springbackTableProblem);
  });

  it('the calibration schema keeps the springback rule and its ranges', () => {
    const ok: [number, number][] = [[0, 0], [90, 3], [180, 5]];
    expect(springbackRowsSchema.safeParse(ok).success).toBe(true);
    const bad: [number, number][][] = [
      [], // no rows
      [[0, 0], [0, 1]], // angles must rise
      [[0, 10], [10, -5]], // compensated angles must rise
      [[0, 0], [181, 0]], // angle above 180
      [[0, 91]], // springback above 90
      Array.from({ length: SPRINGBACK_LIMITS.maxRows + 1 }, (_, i): [number, number] => [i / 3, 0]),
    ];
    for (const rows of bad) {
      expect(springbackRowsSchema.safeParse(rows).success, JSON.stringify(rows).slice(0, 40)).toBe(false);
    }
  });
});

describe('common codes, design format, states and statuses', () => {
  it('the envelope codes are the server and the client ones', () => {
    expect(ServerCode).toBe(Code);
    expect([Code.ok, Code.fail, Code.validation, Code.internal]).toEqual([1000, 1001, 1002, 1003]);
    expect(CLIENT_CODE_OK).toBe(CODE_OK);
  });

  it('the design format is the editor and the server one', () => {
    expect(document.DESIGN_SCHEMA_VERSION).toBe(DESIGN_SCHEMA_VERSION);
    expect(MAX_SCHEMA_VERSION).toBe(DESIGN_SCHEMA_VERSION);
    expect(SERVER_MAX_BYTES).toBe(DESIGN_MAX_BYTES);
    expect(document.emptyDocument().schemaVersion).toBe(DESIGN_SCHEMA_VERSION);
    expect(designSaveSchema.safeParse({ orderId: 1, baseVersion: 0, data: document.emptyDocument() }).success).toBe(true);
  });

  it('job states split into unfinished and finished; the server reads the same list', () => {
    // The finished states are the rest of the list: nothing more happens to them.
    expect(JOB_STATES.filter((s) => !UNFINISHED.includes(s))).toEqual(['done', 'failed', 'cancelled']);
    expect(NOT_STARTED.every((s) => UNFINISHED.includes(s))).toBe(true);
    expect(jobs.JOB_STATES).toBe(JOB_STATES);
  });

  it('order statuses are the server ones', () => {
    expect(orderStatus.ORDER_STATUS).toBe(ORDER_STATUS);
    expect(orderStatus.AI_STATUS).toBe(AI_STATUS);
  });
});
