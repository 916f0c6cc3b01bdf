// The captcha image on Node: svg-captcha reads its font from disk.
import { create } from 'svg-captcha';
import type { CaptchaGenerator } from './captcha.service.ts';

export const svgCaptcha: CaptchaGenerator = ({ width, height }) => {
  const { text, data } = create({ size: 4, noise: 2, color: true, width, height, ignoreChars: '0oO1iIlL' });
  return { text, svg: data };
};
