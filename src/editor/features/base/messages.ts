// The specification's sentence for every way the base tool refuses or fails (rules.ts codes,
// and the worker's codes it passes through).
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { BaseProblemCode } from './rules.ts';

export function baseProblemMessage(code: BaseProblemCode): MessageDescriptor {
  switch (code) {
    case 'NOT_STRAIGHTENED':
      return msg`Please straighten the models first.`;
    case 'TOO_FEW_POINTS':
      return msg`Not enough cutting points: click at least 4 points of the outline on the model.`;
    case 'HEIGHT_TOO_LOW':
      return msg`The base height is too low (at least 0.5 mm).`;
    case 'WIRE_EXISTS':
      return msg`The base cannot be made while a wire exists.`;
    case 'DATA_EXPIRED':
      return msg`Data expired, please re-create the order`;
    case 'MODEL_TOO_LARGE':
      return msg`Model too large, please simplify and re-create the order`;
    case 'NO_MODEL':
      return msg`The model is still loading.`;
    case 'SPLIT_FAILED':
      return msg`Failed to split the area`;
    case 'GENERATION_FAILED':
      return msg`Base generation failed`;
    case 'INIT_FAILED':
      return msg`Initialization error occurred, please click generate again`;
    case 'MEASURE_WHILE_ACCESSORY':
      return msg`Measuring is not allowed while making accessories`;
  }
}
