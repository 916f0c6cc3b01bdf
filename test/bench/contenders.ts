// The ways of turning STL bytes into a mesh that the STL bench suite
// compares. The Babylon rows (ours, babylon, babylon+weld) end with a Mesh in
// a NullEngine scene, so each pays for the same Babylon bookkeeping (vertex
// buffers, bounding info); the mesh is disposed after the clock stops. The
// rows without Babylon (ours-arrays, three, copy) end with arrays or a
// three.js BufferGeometry.

import { VertexBuffer } from '@babylonjs/core/Buffers/buffer.js';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Material } from '@babylonjs/core/Materials/material.js';
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { Scene } from '@babylonjs/core/scene.js';
import { STLFileLoader } from '@babylonjs/loaders/STL/stlFileLoader.js';
import { REVISION } from 'three';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { mergeVertices } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import type { KernelExports } from '../../workers/kernels/abi.ts';
import { parseStl } from '../../workers/kernels/stl.ts';
import { weldSoup } from './weld.ts';

/** The same bytes in the two shapes the contenders take. */
export interface Input {
  /** For parseStl (the worker gets a Blob/ArrayBuffer/Uint8Array). */
  bytes: Uint8Array<ArrayBuffer>;
  /** For Babylon's loader: an ArrayBuffer holding exactly the file. */
  arrayBuffer: ArrayBuffer;
}

export interface Output {
  vertices: number;
  triangles: number;
  /** Disposes the mesh (outside the timed region). */
  release(): void;
}

export interface Contender {
  /** Short name for the table. */
  name: string;
  /** What the output mesh is, for the notes. */
  produces: string;
  run(input: Input): Promise<Output>;
}

let sharedScene: Scene | undefined;

/** One NullEngine scene for every contender: no GPU, the same CPU-side bookkeeping. */
export function benchScene(): Scene {
  if (!sharedScene) {
    Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel; // no version banner
    sharedScene = new Scene(new NullEngine());
  }
  return sharedScene;
}

function meshOutput(mesh: AbstractMesh): Output {
  return {
    vertices: mesh.getTotalVertices(),
    triangles: mesh.getTotalIndices() / 3,
    release: () => mesh.dispose(),
  };
}

/**
 * Ours: `parseStl` over build/kernels.wasm (exactly what the geometry worker
 * runs: copy in, sliced kernel steps, copy out), then the mesh built the way
 * EditorEngine.buildMesh builds it.
 */
export class ArchwrightContender implements Contender {
  readonly name = 'Archwright parseStl (wasm) + Mesh';
  readonly produces = 'indexed mesh, welded vertices, smooth area-weighted normals, bounds';
  /** Where the last run's time went, ms. */
  last = { copyIn: 0, kernel: 0, copyOut: 0, mesh: 0 };
  constructor(public kernels: KernelExports) {}

  async run(input: Input): Promise<Output> {
    const r = await parseStl(this.kernels, input.bytes);
    if (!r.ok) throw new Error(`parseStl failed: ${r.error.code} ${r.error.detail}`);
    const t0 = performance.now();
    const mesh = new Mesh('archwright', benchScene());
    mesh.sideOrientation = Material.CounterClockWiseSideOrientation;
    const data = new VertexData();
    data.positions = r.mesh.positions;
    data.normals = r.mesh.normals;
    data.indices = r.mesh.indices;
    data.applyToMesh(mesh, true); // updatable, as EditorEngine.buildMesh makes it for the smoothing brush
    // parseStl's own timings: bytes into wasm memory; kernel steps (with the
    // worker's event-loop yields every 30 ms); copying the arrays out.
    const { readMs, parseMs, copyOutMs } = r.mesh.timings;
    this.last = { copyIn: readMs, kernel: parseMs - copyOutMs, copyOut: copyOutMs, mesh: performance.now() - t0 };
    return meshOutput(mesh);
  }
}

/**
 * Ours without Babylon: `parseStl` alone, bytes to welded positions, smooth
 * normals, indices and bounds in fresh JS arrays (what the worker sends to
 * the page), for the rows whose peer does not build a Babylon mesh either.
 */
export class ArchwrightArrays implements Contender {
  readonly name = 'Archwright parseStl (wasm)';
  readonly produces = 'indexed mesh, welded vertices, smooth area-weighted normals, bounds (typed arrays)';
  constructor(public kernels: KernelExports) {}

  async run(input: Input): Promise<Output> {
    const r = await parseStl(this.kernels, input.bytes);
    if (!r.ok) throw new Error(`parseStl failed: ${r.error.code} ${r.error.detail}`);
    return { vertices: r.mesh.vertexCount, triangles: r.mesh.triangleCount, release: () => {} };
  }
}

const threeLoader = new STLLoader();

/**
 * three.js: STLLoader.parse, then BufferGeometryUtils.mergeVertices (after
 * dropping the file's flat normals, which would keep corners apart) and
 * computeVertexNormals: the usual way to get a welded, smooth mesh in three.
 */
export const threeWelded: Contender = {
  name: `three.js ${REVISION} STLLoader + mergeVertices + computeVertexNormals`,
  produces: 'indexed BufferGeometry, vertices merged within 1e-4, smooth area-weighted normals',
  async run(input) {
    const soup = threeLoader.parse(input.arrayBuffer);
    soup.deleteAttribute('normal');
    const geometry = mergeVertices(soup);
    geometry.computeVertexNormals();
    geometry.computeBoundingBox();
    soup.dispose();
    return {
      vertices: geometry.getAttribute('position').count,
      triangles: (geometry.getIndex()?.count ?? 0) / 3,
      release: () => geometry.dispose(),
    };
  },
};

/** The physical floor: one copy of the file's bytes (what any parser must at least read). */
export const plainCopy: Contender = {
  name: 'copy of the bytes (Uint8Array.slice)',
  produces: 'the same bytes',
  async run(input) {
    const copy = input.bytes.slice();
    return { vertices: 0, triangles: 0, release: () => void copy.byteLength };
  },
};

const stlLoader = new STLFileLoader();

/** Babylon's STL plugin on an ArrayBuffer: what SceneLoader runs once it has the file's bytes. */
function babylonImport(input: Input): Mesh {
  const meshes: AbstractMesh[] = [];
  if (!stlLoader.importMesh(null, benchScene(), input.arrayBuffer, '', meshes)) throw new Error('STLFileLoader.importMesh returned false');
  const mesh = meshes[0];
  if (meshes.length !== 1 || !(mesh instanceof Mesh)) throw new Error(`STLFileLoader produced ${meshes.length} meshes`);
  return mesh;
}

/** The peer: @babylonjs/loaders' STLFileLoader, as a Babylon app would load an STL. */
export const babylonLoader: Contender = {
  name: 'Babylon STLFileLoader',
  produces: 'triangle soup: 3 unshared vertices per triangle, flat facet normals from the file, y and z swapped',
  async run(input) {
    return meshOutput(babylonImport(input));
  },
};

/**
 * The peer brought to our output: Babylon's loader, then a JS weld (same rule
 * and hash table as the kernel, weld.ts) and Babylon's own
 * VertexData.ComputeNormals, written back into the mesh.
 */
export const babylonWelded: Contender = {
  name: 'Babylon STLFileLoader + JS weld + ComputeNormals',
  produces: 'indexed mesh, welded vertices, smooth normals (unweighted average of unit face normals)',
  async run(input) {
    const mesh = babylonImport(input);
    const soup = mesh.getVerticesData(VertexBuffer.PositionKind);
    const soupIndices = mesh.getIndices();
    if (!soup || !soupIndices) throw new Error('the STL mesh has no positions or indices');
    const { positions, indices } = weldSoup(soup instanceof Float32Array ? soup : new Float32Array(soup), soupIndices);
    const normals = new Float32Array(positions.length);
    VertexData.ComputeNormals(positions, indices, normals);
    mesh.setVerticesData(VertexBuffer.PositionKind, positions, false);
    mesh.setVerticesData(VertexBuffer.NormalKind, normals, false);
    mesh.setIndices(indices, positions.length / 3);
    return meshOutput(mesh);
  },
};
