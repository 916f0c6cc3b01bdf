/// <reference path="../../src/po.d.ts" />
// Slotting headless: NullEngine + the real geometry worker in process, and the real slot kernel
// (manifold-3d) in process behind the same port the page's slot worker client offers. A base is
// generated on the palate jaw, wires are written into the document, and their tags are cut into
// the base: the volume drops in the scene and in the exported STL; undo, redo, reset, the rules'
// codes, and reopening re-applies the slots.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseDocument, type DesignDocument, type WireDesign, type WireType } from '../../src/editor/engine/document.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import type { SlotPort } from '../../src/editor/features/slots/feature.ts';
import type { BaseTool } from '../../src/editor/features/base/tool.ts';
import type { Xyz } from '../../src/editor/engine/pose.ts';
import { KernelError } from '../../workers/kernels/job.ts';
import { cutSlot, loadManifold } from '../../workers/kernels/slot.ts';
import { headlessEditor, openPalateJaw, openPalateJaws, type Headless } from './editor-harness.ts';
import { toothOnArch } from '../fixtures/jaw.ts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { messages as de } from '../../src/locales/de/messages.po';
import { messages as en } from '../../src/locales/en/messages.po';
import { messages as zh } from '../../src/locales/zh/messages.po';
import { WirePanel } from '../../src/editor/features/wires/WirePanel.tsx';

/** The slot worker's job, in process: the kernel the worker runs, with its cancel and progress. */
const slotPort: SlotPort = {
  async cutSlot(base, wire, options = {}) {
    const wasm = await loadManifold();
    try {
      return await cutSlot(wasm, base, wire, { shouldCancel: () => options.signal?.aborted ?? false, onProgress: options.onProgress });
    } catch (e) {
      if (e instanceof KernelError && e.code === 'ABORTED') throw new DOMException('aborted', 'AbortError');
      throw e;
    }
  },
};

let h: Headless;
let editor: EditorEngine;

beforeEach(async () => {
  h = await headlessEditor({ slots: slotPort });
  editor = h.editor;
});
afterEach(() => h.dispose());


const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Straightened, a ring outline (centre 0, 5; radius 12 mm) clicked on the palate, closed and generated. */
async function generateBase(e: EditorEngine): Promise<void> {
  await openPalateJaw(e);
  e.changeDocument('straighten', { ...e.getState().document, straightening: { matrix: IDENTITY, jaw: 'lower' } });
  expect(e.actions.run('tool.base')).toBe(true);
  for (let i = 0; i < 12; i++) {
    const a = 0.1 + (2 * Math.PI * i) / 12;
    const p = e.projectModelPoint('lower', [12 * Math.cos(a), 5 + 12 * Math.sin(a), -10])!;
    await e.pointer('down', { x: p.x, y: p.y, button: 0 });
    await e.pointer('up', { x: p.x, y: p.y, button: 0 });
  }
  (e.activeTool as BaseTool).key('Enter');
  e.setTool(null);
  expect(await e.base.generate()).toBe(true);
}

/** The palate's surface under (x, y), from the worker's pick straight down (beside the model: -8). */
async function surfaceZ(x: number, y: number): Promise<number> {
  const hit = await h.geometry.pick(editor.handleOf('lower')!, [x, y, 50], [0, 0, -1]);
  return hit?.point[2] ?? -8;
}

const P = (x: number, y: number, z: number) => ({ point: [x, y, z] as unknown as Xyz });

/** Corners 1 mm above the palate (inside the 2 mm base) along y from x0 - 4 to x0 + 4. */
async function inBase(x0: number, y: number): Promise<ReturnType<typeof P>[]> {
  return Promise.all([-4, 0, 4].map(async (dx) => P(x0 + dx, y, (await surfaceZ(x0 + dx, y)) + 1)));
}

/**
 * A wire over the teeth (two corners) whose tag (corners 2..4) runs inside the base, and whose
 * last corner is above the base: the slot takes in the segment to it, where the wire leaves.
 */
async function wire(id: string, type: WireType, y: number, options: { tag?: boolean; x?: number } = {}): Promise<WireDesign> {
  const x0 = options.x ?? 0;
  const w: WireDesign = {
    id,
    type,
    jaw: 'lower',
    diameter: 0.9 as never,
    clearance: 0.1 as never,
    points: [P(24, y, 2), P(10, y, -4), ...(await inBase(x0, y)), P(x0 + 6, y, (await surfaceZ(x0 + 6, y)) + 4)],
    anchors: [],
  };
  if (options.tag !== false) w.tag = [2, 4];
  return w;
}

function addWires(e: EditorEngine, ...wires: WireDesign[]): void {
  const doc = e.getState().document;
  e.changeDocument('wire.add', { ...doc, wires: [...(doc.wires ?? []), ...wires] });
}

/** Volume of a closed mesh (divergence theorem). */
function volumeOf(positions: Float32Array, indices: Uint32Array): number {
  let v = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3, b = indices[t + 1]! * 3, c = indices[t + 2]! * 3;
    v +=
      positions[a]! * (positions[b + 1]! * positions[c + 2]! - positions[b + 2]! * positions[c + 1]!) -
      positions[a + 1]! * (positions[b]! * positions[c + 2]! - positions[b + 2]! * positions[c]!) +
      positions[a + 2]! * (positions[b]! * positions[c + 1]! - positions[b + 1]! * positions[c]!);
  }
  return v / 6;
}

/** The exported base STL read back by our parser: its volume and whether it is closed. */
async function exported(e: EditorEngine, geometry = h.geometry): Promise<{ volume: number; closed: boolean }> {
  const stl = await e.base.exportStl();
  expect(stl).not.toBeNull();
  const opened = await geometry.openStl(stl!.slice().buffer, {});
  try {
    const mesh = await geometry.loadStl(stl!.slice().buffer, {});
    const health = await geometry.healthReport(opened.handle);
    return { volume: volumeOf(mesh.positions, mesh.indices), closed: health.openEdges === 0 && health.nonManifoldEdges === 0 };
  } finally {
    await geometry.release(opened.handle);
  }
}

describe('slotting (headless)', () => {
  it('cuts the selected wire tag into the base: one command, the volume drops in the scene and the STL; undo and redo', async () => {
    await generateBase(editor);
    const before = editor.base.view.volume;
    const stlBefore = await exported(editor);
    expect(stlBefore.closed).toBe(true);
    expect(stlBefore.volume).toBeCloseTo(before, 0);

    addWires(editor, await wire('w1', 'singleArmClasp', 5));
    const fractions: number[] = [];
    const o = editor.slots.onChanged.add((v) => v.progress !== null && fractions.push(v.progress));
    expect(await editor.slots.cut('w1')).toBe(true);
    editor.slots.onChanged.remove(o);
    expect(fractions.some((f) => f > 0)).toBe(true);
    expect(editor.slots.view).toMatchObject({ status: 'idle', problem: null, applied: 1, skipped: 0 });
    expect(editor.getState().document.slots).toEqual([{ wireId: 'w1', depth: 0, clearance: 0.1 }]);

    // A tube of radius 0.55 mm along about 9 mm of tag inside the base: π·0.55²·9 ≈ 8.6 mm³.
    const after = editor.base.view.volume;
    expect(before - after).toBeGreaterThan(4);
    expect(before - after).toBeLessThan(20);
    const stlAfter = await exported(editor);
    expect(stlAfter.closed).toBe(true);
    expect(stlAfter.volume).toBeCloseTo(after, 0);

    editor.undo();
    expect(editor.getState().document.slots ?? []).toEqual([]);
    await editor.slots.settled();
    expect(editor.base.view.volume).toBeCloseTo(before, 3);
    expect((await exported(editor)).volume).toBeCloseTo(stlBefore.volume, 1);
    expect(editor.slots.view.applied).toBe(0);

    editor.redo();
    await editor.slots.settled();
    expect(editor.base.view.volume).toBeCloseTo(after, 3);
    expect((await exported(editor)).volume).toBeCloseTo(stlAfter.volume, 1);
    expect(editor.slots.view.applied).toBe(1);
  });

  it('a channel (depth > 0) removes more than the closed tunnel; labial bow and arrow clasp are slotted; reset removes all in one undoable step', async () => {
    await generateBase(editor);
    const before = editor.base.view.volume;
    addWires(editor, await wire('bow', 'labialBow', 1), await wire('arrow', 'arrowClasp', 9));
    expect(await editor.slots.cut('bow')).toBe(true);
    const tunnel = before - editor.base.view.volume;
    editor.slots.setSettings({ depth: 3 });
    expect(await editor.slots.cut('arrow')).toBe(true);
    const channel = before - tunnel - editor.base.view.volume;
    expect(channel).toBeGreaterThan(tunnel * 1.5);
    expect(editor.getState().document.slots!.map((s) => [s.wireId, s.depth])).toEqual([
      ['bow', 0],
      ['arrow', 3],
    ]);
    expect((await exported(editor)).closed).toBe(true);
    const slotted = editor.base.view.volume;

    editor.slots.reset();
    expect(editor.getState().document.slots).toBeUndefined();
    await editor.slots.settled();
    expect(editor.base.view.volume).toBeCloseTo(before, 3);
    expect((await exported(editor)).volume).toBeCloseTo(before, 0);

    editor.undo();
    expect(editor.getState().document.slots).toHaveLength(2);
    await editor.slots.settled();
    expect(editor.base.view.volume).toBeCloseTo(slotted, 3);
  });

  it('refuses by the rules in order, each with its code; a cut that fails says why and changes nothing', async () => {
    await openPalateJaw(editor);
    addWires(editor, await wire('w1', 'singleArmClasp', 5));
    expect(await editor.slots.cut('w1')).toBe(false);
    expect(editor.slots.view.problem?.code).toBe('NO_BASE');
    expect(editor.actions.run('slot.cut')).toBe(true); // the toolbar's action says the same
    await vi.waitFor(() => expect(editor.slots.view.problem?.code).toBe('NO_BASE'));
  });

  it('rules after the base: no wire selected, wraparound bow, no tag, a tag away from the base', async () => {
    await generateBase(editor);
    const revision = () => editor.getState().document.slots;
    addWires(
      editor,
      await wire('wrap', 'wraparoundBow', 5),
      await wire('untagged', 'singleArmClasp', 5, { tag: false }),
      await wire('away', 'singleArmClasp', 5, { x: 60 }),
    );
    expect(await editor.slots.cut()).toBe(false);
    expect(editor.slots.view.problem?.code).toBe('NO_WIRE');
    expect(await editor.slots.cut('gone')).toBe(false);
    expect(editor.slots.view.problem?.code).toBe('NO_WIRE');
    expect(await editor.slots.cut('wrap')).toBe(false);
    expect(editor.slots.view.problem?.code).toBe('SLOT_WIRE_TYPE');
    expect(await editor.slots.cut('untagged')).toBe(false);
    expect(editor.slots.view.problem?.code).toBe('NO_TAG');
    const volume = editor.base.view.volume;
    expect(await editor.slots.cut('away')).toBe(false);
    expect(editor.slots.view.problem).toMatchObject({ code: 'SLOTTING_FAILED' });
    expect(editor.slots.view.problem?.detail).toMatch(/does not meet the base/);
    expect(revision()).toBeUndefined();
    expect(editor.base.view.volume).toBe(volume);
  });

  it('a tag sealed inside the base fails with the reason; a bow with a tag at each end has both cut, saved and reopened', async () => {
    await generateBase(editor);
    const before = editor.base.view.volume;
    const sealed: WireDesign = { id: 'sealed', type: 'singleArmClasp', jaw: 'lower', diameter: 0.9 as never, clearance: 0.1 as never, points: await inBase(0, 5), anchors: [], tag: [0, 2] };
    // Two runs in the base joined over the top of it (a loop in the air), one tag each.
    const bow: WireDesign = {
      id: 'bow',
      type: 'labialBow',
      jaw: 'lower',
      diameter: 0.9 as never,
      clearance: 0.1 as never,
      points: [...(await inBase(0, 1)), P(6, 5, 0), ...(await inBase(0, 9))],
      anchors: [],
      tag: [0, 2],
      tags: [
        [0, 2],
        [4, 6],
      ],
    };
    addWires(editor, sealed, { ...bow, id: 'bow-one', tags: undefined } as WireDesign, bow);
    expect(await editor.slots.cut('sealed')).toBe(false);
    expect(editor.slots.view.problem).toMatchObject({ code: 'SLOTTING_FAILED' });
    expect(editor.slots.view.problem?.detail).toMatch(/sealed/);

    expect(await editor.slots.cut('bow-one')).toBe(true); // `tag` alone: the first run
    const one = before - editor.base.view.volume;
    editor.undo();
    await editor.slots.settled();
    expect(await editor.slots.cut('bow')).toBe(true);
    const both = before - editor.base.view.volume;
    expect(both).toBeGreaterThan(one * 1.6);
    expect((await exported(editor)).closed).toBe(true);

    const saved = parseDocument(JSON.parse(JSON.stringify(editor.getState().document)));
    expect(saved.wires!.find((w) => w.id === 'bow')!.tags).toEqual(bow.tags);
    const again = await headlessEditor({ slots: slotPort });
    try {
      again.editor.loadDocument(saved);
      await openPalateJaw(again.editor);
      await vi.waitFor(
        async () => {
          await again.editor.base.settled();
          await again.editor.slots.settled();
          expect(again.editor.slots.view.applied).toBe(1);
        },
        { timeout: 30_000, interval: 100 },
      );
      expect(again.editor.base.view.volume).toBeCloseTo(before - both, 1);
    } finally {
      again.dispose();
    }
  });

  it('a single-arm clasp placed by the wire tool on a molar beside the base is slotted with the defaults by the key L', async () => {
    await openPalateJaw(editor);
    // An outline on the lingual side of the right molars (from above: palate, ridge and teeth).
    const handle = editor.handleOf('lower')!;
    const outline = [];
    for (let i = 0; i < 14; i++) {
      const a = (2 * Math.PI * i) / 14;
      const hit = (await h.geometry.pick(handle, [-12 + 9 * Math.cos(a), 3 + 9 * Math.sin(a), 50], [0, 0, -1]))!;
      outline.push({ point: hit.point as unknown as Xyz, triangle: hit.triangle });
    }
    const doc = editor.getState().document;
    editor.changeDocument('base', {
      ...doc,
      straightening: { matrix: IDENTITY, jaw: 'lower' },
      bases: { lower: { jaw: 'lower', outline, closed: true, thickness: 2 as never, height: 2 as never, generated: false } },
    });
    expect(await editor.base.generate()).toBe(true);
    const before = editor.base.view.volume;

    // The clasp by a click on the buccal side of the lower right first molar (tooth 1 of the generated jaw).
    expect(editor.actions.run('tool.wire')).toBe(true);
    const molar = toothOnArch(1);
    const p = editor.projectModelPoint('lower', [molar.x + 3.5 * molar.ty, molar.y - 3.5 * molar.tx, -1])!;
    await editor.pointer('down', { ...p, button: 0 });
    await editor.pointer('up', { ...p, button: 0 });
    await editor.wires.settled();
    const clasp = editor.getState().document.wires![0]!;
    expect(clasp.type).toBe('singleArmClasp');
    expect(clasp.tag).toBeDefined();
    expect(editor.wires.selectedId).toBe(clasp.id);
    editor.setTool(null);

    expect(editor.actions.run('slot.cut')).toBe(true);
    await vi.waitFor(() => expect(editor.getState().document.slots).toHaveLength(1), { timeout: 30_000 });
    await editor.slots.settled();
    expect(editor.getState().document.slots).toEqual([{ wireId: clasp.id, depth: 0, clearance: 0.1 }]);
    expect(editor.slots.view).toMatchObject({ problem: null, applied: 1 });
    expect(before - editor.base.view.volume).toBeGreaterThan(2);
    const stl = await exported(editor);
    expect(stl.closed).toBe(true);
    expect(stl.volume).toBeCloseTo(editor.base.view.volume, 0);
  });

  it('a base on each jaw, each with its own slot: generated, slotted, undone and reopened jaw by jaw', async () => {
    await openPalateJaws(editor);
    // The upper model is the lower one turned 180° about y: (x, y, z) → (-x, y, -z), picked from below.
    const ring = async (jaw: 'upper' | 'lower') => {
      const handle = editor.handleOf(jaw)!;
      const s = jaw === 'upper' ? -1 : 1;
      const outline = [];
      for (let i = 0; i < 12; i++) {
        const a = 0.1 + (2 * Math.PI * i) / 12;
        const hit = (await h.geometry.pick(handle, [s * 12 * Math.cos(a), 5 + 12 * Math.sin(a), s * 50], [0, 0, -s]))!;
        outline.push({ point: hit.point as unknown as Xyz, triangle: hit.triangle });
      }
      return { jaw, outline, closed: true, thickness: 2 as never, height: 2 as never, generated: false };
    };
    const doc = editor.getState().document;
    editor.changeDocument('bases', { ...doc, straightening: { matrix: IDENTITY, jaw: 'lower' }, bases: { upper: await ring('upper'), lower: await ring('lower') } });
    expect(await editor.base.generate('lower')).toBe(true);
    expect(await editor.base.generate('upper')).toBe(true);
    expect(editor.base.view.jaw).toBe('upper');
    expect(editor.base.view.jaws.upper.status).toBe('ready');
    expect(editor.base.view.jaws.lower.status).toBe('ready');
    const baseMeshes = editor.getState().baseMeshes;
    expect(baseMeshes.upper).not.toBeNull();
    expect(baseMeshes.lower).not.toBeNull();
    expect(editor.getState().document.bases!.upper!.generated && editor.getState().document.bases!.lower!.generated).toBe(true);
    // Both meshes drawn.
    await vi.waitFor(
      () => {
        editor.renderNow();
        expect(editor.frameStatus.drawn?.bases).toBe(2);
      },
      { timeout: 10_000, interval: 20 },
    );

    // Changing the upper base leaves the lower one as it is (not regenerated).
    const lowerHandle = editor.base.handleOf('lower');
    editor.base.setSettings({ thickness: 2.5 as never }, 'upper');
    expect(editor.base.view.jaws.upper.status).toBe('none');
    expect(await editor.base.generate('upper')).toBe(true);
    expect(editor.base.handleOf('lower')).toBe(lowerHandle);

    // A wire on each jaw, slotted into its own jaw's base.
    const lowerWire = await wire('wl', 'singleArmClasp', 5);
    const mirror = (p: { point: Xyz }) => P(-p.point[0], p.point[1], -p.point[2]);
    const upperWire: WireDesign = { ...lowerWire, id: 'wu', jaw: 'upper', points: lowerWire.points.map(mirror) };
    addWires(editor, lowerWire, upperWire);
    const before = { upper: editor.base.view.jaws.upper.volume, lower: editor.base.view.jaws.lower.volume };
    expect(await editor.slots.cut('wl')).toBe(true);
    expect(editor.base.view.jaws.upper.volume).toBe(before.upper);
    const lowerCut = before.lower - editor.base.view.jaws.lower.volume;
    expect(lowerCut).toBeGreaterThan(2);
    expect(await editor.slots.cut('wu')).toBe(true);
    expect(editor.base.handleOf('lower')).not.toBe(lowerHandle);
    const upperCut = before.upper - editor.base.view.jaws.upper.volume;
    expect(upperCut).toBeGreaterThan(2);
    expect(editor.slots.view).toMatchObject({ applied: 2, skipped: 0, problem: null });
    for (const jaw of ['upper', 'lower'] as const) {
      const stl = await editor.base.exportStl(jaw);
      const opened = await h.geometry.openStl(stl!.slice().buffer, {});
      const health = await h.geometry.healthReport(opened.handle);
      await h.geometry.release(opened.handle);
      expect(health.openEdges + health.nonManifoldEdges).toBe(0);
    }

    // Undo takes the upper slot back out, one command; the lower slot stays.
    editor.undo();
    await editor.slots.settled();
    expect(editor.base.view.jaws.upper.volume).toBeCloseTo(before.upper, 3);
    expect(before.lower - editor.base.view.jaws.lower.volume).toBeCloseTo(lowerCut, 3);
    editor.redo();
    await editor.slots.settled();

    // Reopening: both bases come back with their slots.
    const saved = JSON.parse(JSON.stringify(editor.getState().document)) as DesignDocument;
    expect(saved).not.toHaveProperty('base');
    const again = await headlessEditor({ slots: slotPort });
    try {
      again.editor.loadDocument(parseDocument(saved));
      await openPalateJaws(again.editor);
      await vi.waitFor(() => expect(again.editor.base.view.jaws.upper.status === 'ready' && again.editor.base.view.jaws.lower.status === 'ready').toBe(true), { timeout: 30_000, interval: 20 });
      await again.editor.base.settled();
      await again.editor.slots.settled();
      expect(again.editor.slots.view.applied).toBe(2);
      expect(again.editor.base.view.jaws.upper.volume).toBeCloseTo(before.upper - upperCut, 1);
      expect(again.editor.base.view.jaws.lower.volume).toBeCloseTo(before.lower - lowerCut, 1);
    } finally {
      again.dispose();
    }
  });

  it('the thickness heatmap follows the slotted base', async () => {
    await generateBase(editor);
    addWires(editor, await wire('w1', 'singleArmClasp', 5));
    editor.analysis.setMode('thickness');
    await editor.analysis.settled();
    const before = editor.analysis.meshColors('base')!;
    expect(before.colors).not.toBeNull();
    expect(await editor.slots.cut('w1')).toBe(true);
    await editor.analysis.settled();
    const after = editor.analysis.meshColors('base')!;
    expect(after.positions!.length).not.toBe(before.positions!.length);
    expect(after.colors!.length / 4).toBe(after.positions!.length / 3);
    expect(editor.analysis.isPainted('base')).toBe(true);
  });

  it('a cut cancelled while it runs changes nothing', async () => {
    await generateBase(editor);
    const volume = editor.base.view.volume;
    addWires(editor, await wire('w1', 'singleArmClasp', 5));
    const o = editor.slots.onChanged.add((v) => v.status === 'cutting' && editor.slots.cancel());
    expect(await editor.slots.cut('w1')).toBe(false);
    editor.slots.onChanged.remove(o);
    expect(editor.slots.view).toMatchObject({ status: 'idle', problem: null });
    expect(editor.getState().document.slots).toBeUndefined();
    expect(editor.base.view.volume).toBe(volume);
    // And the next cut works.
    expect(await editor.slots.cut('w1')).toBe(true);
    expect(editor.base.view.volume).toBeLessThan(volume);
  });

  it('a slot whose wire is deleted is skipped and comes back with the wire on undo', async () => {
    await generateBase(editor);
    const before = editor.base.view.volume;
    addWires(editor, await wire('w1', 'singleArmClasp', 5));
    expect(await editor.slots.cut('w1')).toBe(true);
    const slotted = editor.base.view.volume;
    const doc = editor.getState().document;
    editor.changeDocument('wire.delete', { ...doc, wires: [] });
    await editor.slots.settled();
    expect(editor.base.view.volume).toBeCloseTo(before, 3);
    expect(editor.slots.view).toMatchObject({ applied: 0, skipped: 1 });
    editor.undo();
    await editor.slots.settled();
    expect(editor.base.view.volume).toBeCloseTo(slotted, 3);
  });

  it('reopening regenerates the base with its slot, although a wire exists (the base rule does not block it)', async () => {
    await generateBase(editor);
    addWires(editor, await wire('w1', 'singleArmClasp', 5));
    expect(await editor.slots.cut('w1')).toBe(true);
    const slotted = editor.base.view.volume;
    const saved = JSON.parse(JSON.stringify(editor.getState().document)) as DesignDocument;

    const again = await headlessEditor({ slots: slotPort });
    try {
      again.editor.loadDocument(saved);
      await openPalateJaw(again.editor);
      await vi.waitFor(() => expect(again.editor.base.view.status).toBe('ready'), { timeout: 30_000, interval: 20 });
      // Exported at once: the export waits for the slot to be cut into the regenerated base.
      const stl = await exported(again.editor, again.geometry);
      expect(stl.closed).toBe(true);
      expect(stl.volume).toBeCloseTo(slotted, 0);
      expect(again.editor.slots.view.applied).toBe(1);
      expect(again.editor.base.view.volume).toBeCloseTo(slotted, 1);
    } finally {
      again.dispose();
    }
  });
});

/** The wire panel's text for the editor as it is, in a language. */
function panelText(e: EditorEngine, locale: 'en' | 'zh' | 'de'): string {
  i18n.load({ en, zh, de });
  i18n.activate(locale);
  const html = renderToStaticMarkup(createElement(I18nProvider, { i18n }, createElement(WirePanel, { engine: e, state: e.getState() })));
  return html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
}

describe('tags in the base (headless)', () => {
  it('measures each tag against the base shown: held in its middle, short past its rim, again after a slot, gone with the base', async () => {
    await generateBase(editor);
    // The ring outline has a 12 mm radius round (0, 5): a tag from x = -4 to 4 on y = 5 is about 8 mm inside it.
    addWires(editor, await wire('w1', 'singleArmClasp', 5));
    await editor.wires.settled();
    const [held] = editor.wires.tags('w1')!;
    expect(held!.inside).toBeGreaterThan(6);
    expect(held!.inside).toBeLessThan(9);
    expect(held!.outside).toBe(0);
    editor.wires.select('w1');
    expect(panelText(editor, 'en')).toMatch(/Tag: [6-8]\.\d\d mm inside the base\./);
    const warned = () => editor.wires.handlesOf('w1').filter((m) => (m.metadata as { mark: string | null }).mark === 'warning').map((m) => (m.metadata as { corner: number }).corner);
    expect(warned()).toEqual([]);

    // Moved 11 mm along x, its last corner (x = 15) lies past the rim: outside the plan and the
    // acrylic; its middle one (x = 11) within 1 mm of the rim.
    const moved = await wire('w1', 'singleArmClasp', 5, { x: 11 });
    editor.changeDocument('wire.move', { ...editor.getState().document, wires: [moved] });
    expect(editor.wires.tags('w1')).toBeNull(); // not measured for this shape yet
    await editor.wires.settled();
    const [short] = editor.wires.tags('w1')!;
    expect(short!.inside).toBeLessThan(-1);
    expect(short!.outside).toBeGreaterThan(0);
    // Its corners short of the margin are marked in the view (the last one also breaks a bending rule: an error mark).
    expect(short!.short).toEqual([3, 4]);
    expect(warned()).toContain(3);
    expect(warned()).not.toContain(2);
    const mm = Math.abs(short!.inside).toFixed(2);
    expect(panelText(editor, 'en')).toContain(`Tag: ${mm} mm outside the base. ${short!.outside} corner`);
    expect(panelText(editor, 'de')).toContain(`Retentionsteil: ${mm.replace('.', ',')} mm außerhalb der Basis.`);
    expect(panelText(editor, 'zh')).toContain(`固位部：在基托外 ${mm} mm。`);

    // A slot cut into the base changes what is shown, not what the tag is measured against.
    editor.undo();
    expect(await editor.slots.cut('w1')).toBe(true);
    await editor.wires.settled();
    expect(editor.wires.tags('w1')![0]!.inside).toBeCloseTo(held!.inside, 3);

    editor.base.clear('lower');
    await editor.wires.settled();
    expect(editor.wires.tags('w1')).toBeNull();
    editor.undo(); // the base is made again, and the tag measured in it
    await editor.base.settled();
    await editor.wires.settled();
    expect(editor.wires.tags('w1')![0]!.inside).toBeCloseTo(held!.inside, 3);
  });

  it('the worker measures only bases it generated, and only finite corners', async () => {
    await generateBase(editor);
    const model = editor.handleOf('lower')!;
    expect(await h.geometry.tagPlaces(model, new Float32Array([0, 5, 0]))).toBeNull();
    const base = editor.base.handle!;
    expect(await h.geometry.tagPlaces(base, new Float32Array([0, 5, -9]))).toHaveLength(1);
    await expect(h.geometry.tagPlaces(base, new Float32Array([0, Number.NaN, 0]))).rejects.toMatchObject({ code: 'BAD_INPUT' });
    await expect(h.geometry.tagPlaces(base, new Float32Array(5))).rejects.toMatchObject({ code: 'BAD_INPUT' });
  });
});
