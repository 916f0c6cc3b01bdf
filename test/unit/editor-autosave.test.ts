// Autosave against the real back end (design/save on a real SQLite file): changes are saved
// after a quiet time, each save based on the last version; a second tab based on an older
// version is refused and says so, and the first tab's design stays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Autosave, type DesignPort } from '../../src/editor/engine/autosave.ts';
import { parseDocument, type DesignDocument } from '../../src/editor/engine/document.ts';
import { mm } from '../../src/editor/engine/units.ts';
import type { Xyz } from '../../src/editor/engine/pose.ts';
import { cubeStl } from '../fixtures/stl.ts';
import { setup, type TestServer } from '../server/helpers.ts';
import { uploadOne } from '../server/space-helpers.ts';
import { headlessEditor, type Headless } from './editor-harness.ts';

/** A point (model frame) as the document stores it. */
const xyz = (x: number, y: number, z: number): Xyz => [x, y, z];

let t: TestServer;
let token: string;
let orderId: number;

beforeAll(async () => {
  t = await setup();
  token = (await t.login()).token;
  const upper = await uploadOne(t, token, { name: 'upper.stl', bytes: cubeStl() }, { kind: 'model' });
  orderId = (await t.call('POST', '/admin/order/info/add', { token, body: { patientName: 'P', upperFileId: upper.id } })).body.data.id;
});
afterAll(() => t.close());

const port: DesignPort = {
  async save(data, baseVersion) {
    const res = await t.call('POST', '/admin/design/save', { token, lang: 'en', body: { orderId, data, baseVersion } });
    if (res.body.code !== 1000) throw new Error(res.body.message);
    return res.body.data;
  },
  async storedVersion() {
    return (await saved())?.version ?? 0;
  },
};
const saved = async () => (await t.call('GET', `/admin/design/getDesignData?orderId=${orderId}`, { token })).body.data;

function withMeasurement(doc: DesignDocument, id: string, length: number): DesignDocument {
  const a = { point: xyz(0, 0, 0), triangle: 0 };
  const b = { point: xyz(length, 0, 0), triangle: 1 };
  return { ...doc, measurements: [...doc.measurements, { id, model: 'upper', a, b, straight: mm(length), geodesic: mm(length), path: [0, 0, 0, length, 0, 0] }] };
}

describe('autosave', () => {
  let tab1: Headless;
  let tab2: Headless;
  beforeAll(async () => {
    tab1 = await headlessEditor();
    tab2 = await headlessEditor();
  });
  afterAll(() => {
    tab1.dispose();
    tab2.dispose();
  });

  it('saves changes after a quiet time, undo included, and a reopened design is the same document', async () => {
    const editor = tab1.editor;
    const autosave = new Autosave(editor, port, 0, 20);
    const statuses: string[] = [];
    autosave.onChanged.add((s) => statuses.push(s.status));
    editor.changeDocument('measure', withMeasurement(editor.document, 'm1', 5));
    editor.changeDocument('measure', withMeasurement(editor.document, 'm2', 7));
    expect(autosave.getState().status).toBe('pending');
    expect(autosave.dirty).toBe(true);
    await autosave.flush();
    expect(autosave.getState()).toMatchObject({ status: 'saved', version: 1, message: null });
    expect(statuses).toEqual(['pending', 'saving', 'saved']);
    expect((await saved()).data).toEqual(editor.document);

    editor.undo();
    await autosave.flush();
    expect(autosave.getState().version).toBe(2);
    const record = await saved();
    expect(record.version).toBe(2);
    expect(record.data.measurements.map((m: { id: string }) => m.id)).toEqual(['m1']);
    // Reopening: the saved data parses to exactly the editor's document.
    expect(parseDocument(record.data)).toEqual(editor.document);
    autosave.dispose();
  });

  it('closing saves the design as it was at that moment, even while a save is under way', async () => {
    const editor = tab1.editor;
    const version = (await saved()).version;
    const autosave = new Autosave(editor, port, version, 10_000);
    editor.changeDocument('measure', withMeasurement(editor.document, 'c1', 1));
    const underWay = autosave.flush();
    editor.changeDocument('measure', withMeasurement(editor.document, 'c2', 2));
    const expected = editor.document;
    const closing = autosave.close();
    // The page moves on to another design before the saves return: it is not saved here.
    editor.loadDocument({ schemaVersion: 1, measurements: [] });
    await underWay;
    await closing;
    const record = await saved();
    expect(record.version).toBe(version + 2);
    expect(record.data).toEqual(expected);
  });

  it('a second tab based on an older version fails with the server\'s message and overwrites nothing', async () => {
    const before = await saved();
    const stale = new Autosave(tab2.editor, port, 1, 20);
    tab2.editor.changeDocument('measure', withMeasurement(tab2.editor.document, 'other', 3));
    await stale.flush();
    expect(stale.getState().status).toBe('conflict');
    expect(stale.getState().message).toBe(
      `The design was changed elsewhere (another tab or user saved version ${before.version}); reload the design before saving again`,
    );
    expect(stale.dirty).toBe(true);
    expect(await saved()).toEqual(before);
    // It stops saving: further changes wait for a reload instead of failing again and again.
    tab2.editor.changeDocument('measure', withMeasurement(tab2.editor.document, 'more', 4));
    await stale.flush();
    expect(stale.getState().status).toBe('conflict');
    expect(await saved()).toEqual(before);
    stale.dispose();
  });

  it('a save that fails for another reason is "failed" and is retried with the next change', async () => {
    let refuse = true;
    const flaky: DesignPort = {
      save: (data, base) => (refuse ? Promise.reject(new Error('Network error, please check your connection')) : port.save(data, base)),
      storedVersion: port.storedVersion!,
    };
    const version = (await saved()).version;
    const autosave = new Autosave(tab1.editor, flaky, version, 20);
    tab1.editor.changeDocument('measure', withMeasurement(tab1.editor.document, 'm9', 9));
    await autosave.flush();
    expect(autosave.getState()).toMatchObject({ status: 'failed', message: 'Network error, please check your connection' });
    refuse = false;
    tab1.editor.changeDocument('measure', withMeasurement(tab1.editor.document, 'm10', 10));
    await autosave.flush();
    expect(autosave.getState()).toMatchObject({ status: 'saved', version: version + 1 });
    expect((await saved()).data).toEqual(tab1.editor.document);
    autosave.dispose();
  });
});
