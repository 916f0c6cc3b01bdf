// The peer of the editor's "open an order" in the browser bench (test/bench/browser/editor-perf.ts):
// the same order's upper and lower STL files, fetched the way the editor fetches them (order info,
// then both files in parallel, streamed with the session token, chunks joined into one buffer),
// handed to Babylon.js's own STL loader (SceneLoader, @babylonjs/loaders STLFileLoader, on the
// main thread, as a Babylon app loads an STL) and drawn once. Marks on the page's timeline:
//   loader:downloaded   both files received
//   loader:parsed       both meshes built by the loader
//   loader:shown        the first frame with both meshes is done (its pixels read back)
// Then one Babylon pick at the canvas centre (its CPU picking walks the triangles: the loader's
// "pickable"), reported as window.benchLoader.pickMs. ?orderId=N&width=W&height=H (canvas CSS size).
// &material=editor draws the meshes as the editor does (both sides of the surface, lit on both:
// scans are open), so that both first frames draw the same picture; without it, the loader's
// default material (back faces culled: about half the triangles are not rasterised).
import { Engine } from '@babylonjs/core/Engines/engine';
import { Scene } from '@babylonjs/core/scene';
import { ArcRotateCamera } from '@babylonjs/core/Cameras/arcRotateCamera';
import { HemisphericLight } from '@babylonjs/core/Lights/hemisphericLight';
import { DirectionalLight } from '@babylonjs/core/Lights/directionalLight';
import { Vector3 } from '@babylonjs/core/Maths/math.vector';
import { Color3, Color4 } from '@babylonjs/core/Maths/math.color';
import { StandardMaterial } from '@babylonjs/core/Materials/standardMaterial';
import { ImportMeshAsync } from '@babylonjs/core/Loading/sceneLoader';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import '@babylonjs/core/Culling/ray';
import '@babylonjs/loaders/STL/stlFileLoader';

interface OrderFile {
  name: string;
  url: string;
  size: number;
}

interface BenchLoader {
  done: boolean;
  error: string | null;
  triangles: number;
  vertices: number;
  pickMs: number | null;
  pickHit: boolean;
  renderer: string;
}

const result: BenchLoader = { done: false, error: null, triangles: 0, vertices: 0, pickMs: null, pickHit: false, renderer: '' };
(window as unknown as { benchLoader: BenchLoader }).benchLoader = result;

function token(): string {
  const raw = localStorage.getItem('aw.session');
  const session = raw ? (JSON.parse(raw) as { token?: string }) : null;
  if (!session?.token) throw new Error('no session in localStorage (aw.session)');
  return session.token;
}

/** As a Babylon page would: on the main thread, streamed, the chunks joined into one buffer. */
async function download(file: OrderFile, authorization: string): Promise<ArrayBuffer> {
  const response = await fetch(file.url, { headers: { Authorization: authorization } });
  if (!response.ok || !response.body) throw new Error(`download of ${file.name} failed: ${response.status}`);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const part = await reader.read();
    if (part.done) break;
    chunks.push(part.value);
    received += part.value.length;
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes.buffer;
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const canvas = document.getElementById('view') as HTMLCanvasElement;
  canvas.style.width = `${Number(params.get('width')) || window.innerWidth}px`;
  canvas.style.height = `${Number(params.get('height')) || window.innerHeight}px`;
  // The editor's engine options.
  const engine = new Engine(canvas, true, { preserveDrawingBuffer: true, stencil: false, antialias: true, powerPreference: 'high-performance' }, true);
  const gl = (engine as unknown as { _gl: WebGL2RenderingContext })._gl;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  result.renderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  const scene = new Scene(engine);
  scene.useRightHandedSystem = true;
  scene.clearColor = new Color4(0.925, 0.933, 0.945, 1);
  const camera = new ArcRotateCamera('camera', Math.PI / 2, Math.PI / 2 - 0.3, 100, Vector3.Zero(), scene);
  camera.upVector = new Vector3(0, 0, 1);
  new HemisphericLight('sky', new Vector3(0, 0, 1), scene).intensity = 0.45;
  new DirectionalLight('headlight', new Vector3(0, 1, 0), scene).intensity = 0.6;

  const authorization = token();
  const orderId = Number(params.get('orderId'));
  const infoResponse = await fetch(`/admin/order/info/info?id=${orderId}`, { headers: { Authorization: authorization } });
  const order = (await infoResponse.json()).data as { upperFile: OrderFile | null; lowerFile: OrderFile | null };
  const files = [order.upperFile, order.lowerFile].filter((f): f is OrderFile => !!f);
  const buffers = await Promise.all(files.map((f) => download(f, authorization)));
  performance.mark('loader:downloaded');

  // The STL plugin takes no ArrayBufferView source: the bytes go in as a File (SceneLoader reads it
  // back into an ArrayBuffer), as for a file dropped on a Babylon page.
  const meshes: AbstractMesh[] = [];
  for (const [i, bytes] of buffers.entries()) {
    const loaded = await ImportMeshAsync(new File([bytes], files[i]!.name), scene, { pluginExtension: '.stl' });
    meshes.push(...loaded.meshes);
  }
  if (params.get('material') === 'editor') {
    const material = new StandardMaterial('as-the-editor', scene);
    material.diffuseColor = new Color3(0.93, 0.89, 0.8);
    material.specularColor = new Color3(0.22, 0.22, 0.2);
    material.specularPower = 40;
    material.backFaceCulling = false;
    material.twoSidedLighting = true;
    for (const mesh of meshes) mesh.material = material;
  }
  performance.mark('loader:parsed');
  for (const mesh of meshes) {
    result.vertices += mesh.getTotalVertices();
    result.triangles += (mesh.getTotalIndices() || mesh.getTotalVertices()) / 3;
  }

  // Frame the models as the editor does (their bounding box from the front).
  let min = new Vector3(Infinity, Infinity, Infinity);
  let max = new Vector3(-Infinity, -Infinity, -Infinity);
  for (const mesh of meshes) {
    const box = mesh.getBoundingInfo().boundingBox;
    min = Vector3.Minimize(min, box.minimumWorld);
    max = Vector3.Maximize(max, box.maximumWorld);
  }
  camera.setTarget(min.add(max).scale(0.5));
  camera.radius = max.subtract(min).length() * 1.2;
  camera.minZ = camera.radius * 0.01;

  // Drawn once ready (shaders compiled); shown when the frame's pixels are done: a one-pixel read,
  // as the editor's editor:models-shown (src/editor/engine/openTiming.ts).
  await new Promise<void>((resolve) => {
    scene.executeWhenReady(() => {
      scene.render();
      void engine.readPixels(0, 0, 1, 1).then(() => resolve());
    });
  });
  performance.mark('loader:shown');

  const t = performance.now();
  const hit = scene.pick(canvas.clientWidth / 2, canvas.clientHeight / 2);
  result.pickMs = performance.now() - t;
  result.pickHit = !!hit?.hit;
  result.done = true;
}

main().catch((e: unknown) => {
  result.error = e instanceof Error ? e.message : String(e);
  result.done = true;
});
