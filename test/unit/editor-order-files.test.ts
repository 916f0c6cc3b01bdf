// The open order's files from the editor (order/orderFiles.ts, device dock), headless with the
// real geometry worker and the back-end calls stood in: the base stored after each generation by
// the designer (a refusal keeps the local base and the base stored before; Store again), a
// smoothed jaw kept as a model version (its smoothing leaves the document, the history starts
// over, the file reopens to the same mesh), Restore reloads the jaw (the base on it made again),
// and the order's machine in the device controller.
import { createHash } from 'node:crypto';
import type { Scene } from '@babylonjs/core/scene';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import { describe, expect, it } from 'vitest';
import type { DesignDocument } from '../../src/editor/engine/document.ts';
import type { EditorEngine } from '../../src/editor/engine/EditorEngine.ts';
import type { BaseTool } from '../../src/editor/features/base/tool.ts';
import type { BaseStoragePort, ModelVersionPort } from '../../src/editor/order/orderFiles.ts';
import type { OrderDeviceInfo, OrderModelVersion } from '../../common/order-lifecycle.ts';
import { DeviceController } from '../../src/editor/device/DeviceController.ts';
import type { DevicePort } from '../../src/editor/device/port.ts';
import { headlessEditor, headlessEditorEach, openPalateJaw, openPalateJaws, type Headless } from './editor-harness.ts';

let h: Headless;
let editor: EditorEngine;
headlessEditorEach((made) => ((h = made), (editor = made.editor)));

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const ORDER = { id: 7, caseNo: 'C-7' };

async function closedOutline(): Promise<void> {
  editor.changeDocument('straighten', { ...editor.getState().document, straightening: { matrix: IDENTITY, jaw: 'lower' } } as DesignDocument);
  expect(editor.actions.run('tool.base')).toBe(true);
  for (let i = 0; i < 12; i++) {
    const a = 0.1 + (2 * Math.PI * i) / 12;
    const p = editor.projectModelPoint('lower', [12 * Math.cos(a), 5 + 12 * Math.sin(a), -10])!;
    await editor.pointer('down', { x: p.x, y: p.y, button: 0 });
    await editor.pointer('up', { x: p.x, y: p.y, button: 0 });
  }
  (editor.activeTool as BaseTool).key('Enter');
}

/** An STL's triangles (after its 80-byte header, which names who wrote it). */
const digest = (bytes: Uint8Array): string => createHash('sha256').update(bytes.subarray(80)).digest('hex');

describe('the stored base', () => {
  it('is stored after each generation by the designer; a refusal keeps the local base and the base stored before; Store again', async () => {
    await openPalateJaw(editor);
    const sent: Uint8Array[] = [];
    let refuse: string | null = null;
    const port: BaseStoragePort = {
      saveBase: async (orderId, stl) => {
        expect(orderId).toBe(ORDER.id);
        if (refuse) throw new Error(refuse);
        sent.push(stl.slice());
        return { baseFileId: 100 + sent.length, url: `/admin/base/comm/file/${100 + sent.length}` };
      },
    };
    editor.baseFile.attach({ ...ORDER, baseFile: { id: 50, url: '/admin/base/comm/file/50', name: 'base-C-7.stl' } }, port);
    expect(editor.baseFile.getState()).toMatchObject({ status: 'none', file: { id: 50 } });

    await closedOutline();
    expect(await editor.base.generate()).toBe(true);
    await until(() => editor.baseFile.getState().status !== 'storing');
    expect(editor.baseFile.getState()).toMatchObject({ status: 'stored', error: null, file: { id: 101, url: '/admin/base/comm/file/101', name: 'base-C-7.stl' } });
    // What was sent is the base's export (the worker's STL of the shown base).
    expect(sent).toHaveLength(1);
    expect(digest(sent[0]!)).toBe(digest((await editor.base.exportStl())!));

    // Regenerated after a settings change: stored again, replacing the previous one.
    editor.base.setSettings({ thickness: 2.5 as never });
    expect(await editor.base.generate()).toBe(true);
    await until(() => editor.baseFile.getState().status !== 'storing');
    expect(editor.baseFile.getState().file?.id).toBe(102);

    // The server refuses (a submitted order): its message, the local base untouched, the file before kept.
    refuse = 'Not possible while the order is "To be processed"';
    editor.base.setSettings({ thickness: 2 as never });
    expect(await editor.base.generate()).toBe(true);
    await until(() => editor.baseFile.getState().status !== 'storing');
    expect(editor.baseFile.getState()).toMatchObject({ status: 'failed', error: refuse, file: { id: 102 } });
    expect(editor.base.view.status).toBe('ready');
    expect(editor.getState().document.bases!.lower!.generated).toBe(true);

    refuse = null;
    expect(await editor.baseFile.store()).toBe(true);
    expect(editor.baseFile.getState()).toMatchObject({ status: 'stored', file: { id: 103 } });

    // Undo and redo regenerate the base without storing it: only the designer's generation stores.
    editor.undo();
    editor.redo();
    await editor.base.settled();
    expect(sent).toHaveLength(3);
  });

  it('with a base on each jaw, stores both as one file: one shell per jaw', async () => {
    await openPalateJaws(editor);
    const sent: Uint8Array[] = [];
    editor.baseFile.attach(ORDER, { saveBase: async (_orderId, stl) => (sent.push(stl.slice()), { baseFileId: 200 + sent.length, url: '/f' }) });
    // The upper model is the lower one turned 180° about y, picked from below.
    const ring = async (jaw: 'upper' | 'lower') => {
      const s = jaw === 'upper' ? -1 : 1;
      const outline = [];
      for (let i = 0; i < 12; i++) {
        const a = 0.1 + (2 * Math.PI * i) / 12;
        const hit = (await h.geometry.pick(editor.handleOf(jaw)!, [s * 12 * Math.cos(a), 5 + 12 * Math.sin(a), s * 50], [0, 0, -s]))!;
        outline.push({ point: hit.point as unknown as [number, number, number], triangle: hit.triangle });
      }
      return { jaw, outline, closed: true, thickness: 2 as never, height: 2 as never, generated: false };
    };
    const doc = editor.getState().document;
    editor.changeDocument('bases', { ...doc, straightening: { matrix: IDENTITY, jaw: 'lower' }, bases: { upper: await ring('upper'), lower: await ring('lower') } } as DesignDocument);
    expect(await editor.base.generate('lower')).toBe(true);
    await until(() => editor.baseFile.getState().status === 'stored');
    expect(await editor.base.generate('upper')).toBe(true);
    await until(() => sent.length === 2 && editor.baseFile.getState().status === 'stored');
    const triangles = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(80, true);
    const upper = (await editor.base.exportStl('upper'))!;
    const lower = (await editor.base.exportStl('lower'))!;
    // The first store held the lower base alone; the second both, upper first, each intact.
    expect(digest(sent[0]!)).toBe(digest(lower));
    expect(triangles(sent[1]!)).toBe(triangles(upper) + triangles(lower));
    expect(sent[1]!.byteLength).toBe(84 + 50 * (triangles(upper) + triangles(lower)));
    expect(Buffer.from(sent[1]!.subarray(84, 84 + 50 * triangles(upper))).equals(Buffer.from(upper.subarray(84)))).toBe(true);
  });

  it('without an open order nothing is stored', async () => {
    await openPalateJaw(editor);
    await closedOutline();
    expect(await editor.base.generate()).toBe(true);
    expect(editor.baseFile.getState()).toMatchObject({ orderId: null, status: 'none', file: null });
  });
});

/** A stand-in of modifyModel/modelVersions as the server answers them, over uploaded bytes. */
function versionServer(original: ArrayBuffer) {
  const files = new Map<number, Uint8Array>([[1, new Uint8Array(original.slice(0))]]);
  let rows: OrderModelVersion[] = [];
  let active = 1;
  const row = (version: number, fileId: number, note: string): OrderModelVersion => ({ jaw: 'lower', version, fileId, name: `f${fileId}.stl`, note, userId: 1, createTime: '2026-11-27 10:00:00', url: `/f/${fileId}`, active: false });
  const answer = () => rows.map((r) => ({ ...r, active: r.fileId === active }));
  const calls: unknown[] = [];
  const port: ModelVersionPort = {
    upload: async (stl, name) => {
      const id = files.size + 1;
      files.set(id, stl.slice());
      calls.push({ upload: name });
      return { id };
    },
    modify: async (body) => {
      calls.push(body);
      if (body.fileId !== undefined) {
        if (!rows.length) rows.push(row(1, 1, 'original'));
        rows.push(row(rows.length + 1, body.fileId, body.note ?? 'edited'));
        active = body.fileId;
      } else {
        active = rows.find((r) => r.version === body.restoreVersion)!.fileId;
      }
      return { versions: answer() };
    },
    versions: async () => answer(),
    source: (v) => async (_signal, onProgress) => (onProgress(1), files.get(v.fileId)!.slice().buffer),
  };
  return { port, files, calls };
}

describe('model versions', () => {
  it('keeps a smoothed jaw as a new version: uploaded as smoothed, the smoothing leaves the document, the history starts over', async () => {
    await openPalateJaw(editor);
    const original = await h.geometry.exportStl(editor.handleOf('lower')!);
    const server = versionServer(original.slice().buffer);
    editor.modelVersions.attach(ORDER, server.port);
    await until(() => editor.modelVersions.getState().loaded);
    expect(editor.modelVersions.canKeep('lower')).toBe(false);

    expect(await editor.smoothing.smoothAll('lower')).toBe(true);
    expect(editor.modelVersions.canKeep('lower')).toBe(true);
    const smoothed = digest(await h.geometry.exportStl(editor.handleOf('lower')!));
    const revision = editor.getState().revision;
    expect(await editor.modelVersions.keep('lower')).toBe(true);

    expect(server.calls).toEqual([{ upload: 'C-7-lower-smoothed.stl' }, { orderId: 7, jaw: 'lower', fileId: 2, note: 'smoothed' }]);
    expect(digest(server.files.get(2)!)).toBe(smoothed);
    expect(editor.getState().document.smoothing).toBeUndefined();
    expect(editor.getState().revision).toBeGreaterThan(revision); // the autosave stores it
    expect(editor.getState().canUndo).toBe(false);
    // The mesh shown stays the smoothed one (no reload, not smoothed twice).
    expect(digest(await h.geometry.exportStl(editor.handleOf('lower')!))).toBe(smoothed);
    expect(editor.modelVersions.of('lower').map((v) => [v.version, v.note, v.active])).toEqual([
      [1, 'original', false],
      [2, 'smoothed', true],
    ]);
    expect(editor.modelVersions.getState().done).toEqual({ jaw: 'lower', kind: 'keep', version: 2 });

    // Reopening: the kept file with the saved document opens to the same mesh (triangles in the same order).
    const again = await headlessEditor();
    try {
      again.editor.loadDocument(JSON.parse(JSON.stringify(editor.getState().document)) as DesignDocument);
      const bytes = server.files.get(2)!.slice().buffer;
      await again.editor.openModels([{ role: 'lower', name: 'f2.stl', source: async (_s, onProgress) => (onProgress(1), bytes) }]);
      await again.editor.smoothing.settled();
      expect(digest(await again.geometry.exportStl(again.editor.handleOf('lower')!))).toBe(smoothed);
    } finally {
      again.dispose();
    }
  });

  it('restores a version: the jaw is loaded from its file, its smoothing dropped, the base on it made again', async () => {
    await openPalateJaw(editor);
    const original = await h.geometry.exportStl(editor.handleOf('lower')!);
    const server = versionServer(original.slice().buffer);
    editor.modelVersions.attach(ORDER, server.port);
    expect(await editor.smoothing.smoothAll('lower')).toBe(true);
    expect(await editor.modelVersions.keep('lower')).toBe(true);
    await closedOutline();
    expect(await editor.base.generate()).toBe(true);
    const triangles = editor.base.view.triangles;

    // A wire on the jaw (after the base: the rules refuse a base while a wire exists).
    const wire = { id: 'w1', type: 'singleArmClasp', jaw: 'lower', diameter: 0.8, clearance: 0.1, points: [{ point: [0, 0, 0] }, { point: [10, 0, 0] }, { point: [10, 6, 0] }], anchors: [] };
    editor.changeDocument('wire.add', { ...editor.getState().document, wires: [wire] } as unknown as DesignDocument);
    // The engine's scene (private: read here only to find the drawn tube).
    const scene = () => (editor as unknown as { scene: Scene }).scene;
    const tube = () => scene().meshes.find((m) => m.name === 'wire-w1' && !m.isDisposed()) ?? null;
    expect(tube()).not.toBeNull();
    // Smoothing again, not kept, then back to the original.
    expect(await editor.smoothing.smoothAll('lower')).toBe(true);
    expect(await editor.modelVersions.restore('lower', 1)).toBe(true);
    expect(server.calls.at(-1)).toEqual({ orderId: 7, jaw: 'lower', restoreVersion: 1 });
    expect(editor.getState().document.smoothing).toBeUndefined();
    expect(editor.getState().models.find((m) => m.role === 'lower')?.status).toBe('ready');
    await editor.smoothing.settled();
    expect(digest(await h.geometry.exportStl(editor.handleOf('lower')!))).toBe(digest(original));
    expect(editor.modelVersions.of('lower').find((v) => v.active)?.version).toBe(1);
    await until(() => editor.base.view.status === 'ready');
    await editor.base.settled();
    expect(editor.base.view.status).toBe('ready');
    expect(editor.base.view.triangles).toBeGreaterThan(triangles / 2);
    expect(editor.base.handle).not.toBeNull();
    // The wire is drawn again on the reloaded jaw (its tube went with the old mesh).
    expect(tube()).not.toBeNull();
    expect(tube()!.parent).not.toBeNull();
    expect((tube()!.parent as AbstractMesh).isDisposed()).toBe(false);
  });

  it('a refused change leaves the document and the jaw as they were, with the message', async () => {
    await openPalateJaw(editor);
    const server = versionServer(new ArrayBuffer(0));
    editor.modelVersions.attach(ORDER, { ...server.port, modify: async () => Promise.reject(new Error('Not possible: reopen the order first')) });
    expect(await editor.smoothing.smoothAll('lower')).toBe(true);
    const doc = editor.getState().document;
    expect(await editor.modelVersions.keep('lower')).toBe(false);
    expect(editor.modelVersions.getState().error).toEqual({ jaw: 'lower', message: 'Not possible: reopen the order first' });
    expect(editor.getState().document).toBe(doc);
    expect(editor.getState().canUndo).toBe(true);
  });
});

describe("the order's machine in the device dock", () => {
  it('shows the device and the jobs of the open order; a refusal keeps the lists and the last answer', async () => {
    const info: OrderDeviceInfo = { device: { id: 3, name: 'Bender A', status: 'bending', online: true }, jobs: [{ jobId: 'j2', wire: 'w1', status: 'bending', updateTime: '2026-11-27 10:01:00' }] };
    let fail = false;
    const asked: number[] = [];
    const port: DevicePort = {
      devices: async () => [],
      queue: async () => [],
      bend: async () => ({ jobId: 'x' }),
      cancel: async () => {},
      orderDevice: async (orderId) => {
        asked.push(orderId);
        if (fail) throw new Error('refused');
        return info;
      },
    };
    const c = new DeviceController({ geometry: h.geometry, selectedWire: () => null });
    try {
      c.connect({ port, userId: 1, admin: false, orderId: 7, pollMs: 60_000 });
      c.setOpen(true);
      await c.refresh();
      expect(c.getState().orderDevice).toEqual(info);
      expect(asked[0]).toBe(7);
      fail = true;
      await c.refresh();
      expect(c.getState()).toMatchObject({ orderDevice: info, offline: false, loaded: true });
      // Without an order nothing is asked.
      c.connect({ port, userId: 1, admin: false, orderId: null, pollMs: 60_000 });
      const n = asked.length;
      await c.refresh();
      expect(asked.length).toBe(n);
      expect(c.getState().orderDevice).toBeNull();
    } finally {
      c.dispose();
    }
  });
});

async function until(test: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}
