// The sentences of the device panel: the specification's client messages, the checks' messages
// (BEND_MESSAGES, with their values) and the names of states; a wire type's name is the wire
// feature's (features/wires/messages.ts).
import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { BendIssue, WireType } from '../../geometry/client.ts';
import type { BendOutcome } from './bendFlow.ts';
import type { JobStatus, UserDevice } from './types.ts';
import { WIRE_TYPE_NAMES } from '../features/wires/messages.ts';

const CLIENT_MESSAGES = {
  noDevice: msg`Add failed, no device selected`,
  noWire: msg`Bending failed, no bow wire was selected`,
  network: msg`Network exception, failed to send data.`,
} as const;

const STATUS: Record<JobStatus, MessageDescriptor> = {
  queued: msg({ message: 'Queued', context: 'bend job' }),
  sent: msg({ message: 'Sent', context: 'bend job' }),
  acked: msg({ message: 'Received', context: 'bend job' }),
  bending: msg({ message: 'Bending', context: 'bend job' }),
  done: msg({ message: 'Done', context: 'bend job' }),
  failed: msg({ message: 'Failed', context: 'bend job' }),
  cancelled: msg({ message: 'Cancelled', context: 'bend job' }),
};

const STATE: Record<string, MessageDescriptor> = {
  offline: msg({ message: 'Offline', context: 'device' }),
  idle: msg({ message: 'Idle', context: 'device' }),
  bending: msg({ message: 'Bending', context: 'device' }),
  error: msg({ message: 'Error', context: 'device' }),
  maintenance: msg({ message: 'Maintenance', context: 'device' }),
};

export function jobStatusName(i18n: I18n, status: JobStatus): string {
  return STATUS[status] ? i18n._(STATUS[status]) : status;
}

export function deviceStateName(i18n: I18n, state: string): string {
  return STATE[state] ? i18n._(STATE[state]) : state;
}

export function wireTypeName(i18n: I18n, type: WireType): string {
  return i18n._(WIRE_TYPE_NAMES[type]);
}

const num = (v: number): string => String(Math.round(v * 100) / 100);

/** The translated sentence of a check's finding, with its values. */
export function issueMessage(i18n: I18n, issue: BendIssue, context: { device?: UserDevice | null; diameter?: number; steps?: number | null } = {}): string {
  const step = (issue.step ?? 0) + 1;
  switch (issue.code) {
    case 'WIRE_INVALID':
      return i18n._(msg`The wire cannot be bent: two corners are too close for the die radius`);
    case 'ARC_CAPPED':
      return i18n._(msg`Arc angles above 160 degrees are capped at 160`);
    case 'START_LENGTH':
      return i18n._(msg`Start length: valid number from 5 to 100`);
    case 'END_LENGTH':
      return i18n._(msg`End length: valid number from 5 to 100`);
    case 'WRAPAROUND_FIRST_STRAIGHT':
      return i18n._(msg`The wraparound bow first straight section is advised at or under 30 mm`);
    case 'ARROW_DOUBLE_BEND':
      return i18n._(msg`The arrow clasp needs a double bend of two arcs`);
    case 'DIAMETER_MISMATCH': {
      const diameters = (context.device?.diameterList ?? []).map(num).join(', ');
      const diameter = num(context.diameter ?? 0);
      return i18n._(msg`Wire diameter mismatch: the device takes ${diameters} mm, not ${diameter} mm`);
    }
    case 'OVER_MEMORY': {
      const steps = context.steps ?? 0;
      const memory = context.device?.memory ?? 0;
      return i18n._(msg`Wire data over machine memory (${steps} steps, the device holds ${memory})`);
    }
    case 'FEED_LIMIT':
    case 'BEND_LIMIT':
    case 'ROTATE_LIMIT':
      return i18n._(msg`Step ${step}: a step is outside the machine limits`);
    case 'COLLISION':
      return i18n._(msg`Step ${step}: the bending path collided with the machine and was skipped`);
  }
}

/** The sentence of a Bend outcome that is not a success. */
export function outcomeMessage(i18n: I18n, outcome: Extract<BendOutcome, { kind: 'noDevice' | 'noWire' | 'network' | 'refused' | 'badTable' }>): string {
  switch (outcome.kind) {
    case 'noDevice':
      return i18n._(CLIENT_MESSAGES.noDevice);
    case 'noWire':
      return i18n._(CLIENT_MESSAGES.noWire);
    case 'network':
      return i18n._(CLIENT_MESSAGES.network);
    case 'refused':
      return outcome.message;
    case 'badTable': {
      const diameter = outcome.diameter;
      return i18n._(msg`The device's springback table for ${diameter} mm wire cannot be used (the compensated angle must rise with the angle); please correct it in the device settings.`);
    }
  }
}
