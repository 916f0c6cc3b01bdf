// Bite registration: what the kernel (assembly/bite*.ts through workers/kernels/bite.ts), the
// server's bite job, `npm run bite` and the editor exchange. Pure: no DOM, worker or Node imports.

/** A rigid transform as a 4x4 matrix, column-major (element [col * 4 + row]), millimetres. */
export type Mat4 = readonly number[];

export const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** Why a registration gave no transforms (result.code); the sentence is in result.error. */
export const BITE_ERRORS = ['BITE_NO_OVERLAP', 'BITE_POOR_FIT', 'BITE_NOT_DENTAL', 'BITE_BAD_INPUT'] as const;
export type BiteErrorCode = (typeof BITE_ERRORS)[number];

/**
 * The registered bite of an order: each jaw's model mapped into the bite scan's frame, and how
 * well the scan agrees. The first six fields are `npm run bite`'s result.json.
 */
export interface BiteResult {
  /** Upper model coordinates -> bite frame. */
  upper: Mat4;
  /** Lower model coordinates -> bite frame (after any penetration was resolved). */
  lower: Mat4;
  /** RMS distance (mm) of the bite scan's matched points to the models. */
  rms: number;
  /** Share of the bite scan's points (0..1) that lie on one of the two models. */
  overlap: number;
  /** Largest inter-arch penetration (mm) of the registered models, before it was resolved. */
  penetration: number;
  /** A sentence saying why registration failed; then upper and lower are the identity. */
  error?: string;
  code?: BiteErrorCode;
  /** How far (mm) the lower jaw was moved along the occlusal direction to resolve penetration. */
  resolved?: number;
  /**
   * How far (mm) the lower jaw would move along the occlusal direction to bring the penetration
   * down to the contact tolerance (0 when within it), whether or not that was applied.
   */
  resolveBy?: number;
  /** Lower model coordinates -> bite frame with the penetration resolved (`lower` moved by resolveBy). */
  lowerResolved?: Mat4;
  /** Unit occlusal direction (upper jaw towards the lower) in the bite frame. */
  occlusal?: readonly [number, number, number];
  /** Per jaw: RMS (mm) and the number of bite points matched. */
  upperFit?: { rms: number; points: number };
  lowerFit?: { rms: number; points: number };
  /** Milliseconds the registration took (not parsing). */
  ms?: number;
}
