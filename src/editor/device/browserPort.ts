// The device port of the page: the session's request() (token, language, refresh), silent so
// that the panel shows the messages itself.
import { request } from '../../api/client.ts';
import { ApiError } from '../../api/http.ts';
import { devicePort, DeviceRefusal, type DevicePort } from './port.ts';

export function browserDevicePort(): DevicePort {
  return devicePort(async (url, body) => {
    try {
      const data = await request<unknown>({ url, method: 'POST', data: body, silent: true });
      return { code: 1000, message: '', data };
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'api') throw new DeviceRefusal(e.message, e.code ?? 0);
      throw e;
    }
  });
}
