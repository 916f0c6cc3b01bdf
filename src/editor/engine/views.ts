// Camera presets of a dental CAD view. Scene frame: z up, incisors towards -y, the patient's
// right towards -x (docs/editor.md). With upVector z, the ArcRotateCamera sits at
// target + r (cos a sin b, -sin a sin b, cos b): alpha turns in the x/y plane, beta from +z.
import { rad, type Radians } from './units.ts';

export type ViewPreset = 'front' | 'back' | 'left' | 'right' | 'top' | 'bottom';
export const VIEW_PRESETS: readonly ViewPreset[] = ['front', 'back', 'left', 'right', 'top', 'bottom'];

/** A hair off the poles: the camera's up vector stays defined. */
const POLE = 1e-3;

/** Camera alpha and beta of a preset. */
export function presetAngles(view: ViewPreset): { alpha: Radians; beta: Radians } {
  switch (view) {
    case 'front': // from the patient's front (-y)
      return { alpha: rad(Math.PI / 2), beta: rad(Math.PI / 2) };
    case 'back':
      return { alpha: rad(-Math.PI / 2), beta: rad(Math.PI / 2) };
    case 'left': // the patient's left side (+x)
      return { alpha: rad(0), beta: rad(Math.PI / 2) };
    case 'right':
      return { alpha: rad(Math.PI), beta: rad(Math.PI / 2) };
    case 'top': // occlusal view from above, incisors at the bottom of the screen
      return { alpha: rad(Math.PI / 2), beta: rad(POLE) };
    case 'bottom':
      return { alpha: rad(Math.PI / 2), beta: rad(Math.PI - POLE) };
  }
}
