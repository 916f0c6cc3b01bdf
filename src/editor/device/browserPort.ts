// The device port of the page: the typed client sent through the session (token, language,
// refresh), silent so that the panel shows the messages itself.
import { api } from '../../api/api.ts';
import { devicePort, type DevicePort } from './port.ts';

export function browserDevicePort(): DevicePort {
  return devicePort(api({ silent: true }));
}
