/** /login: username, password, captcha (click the image or the button to refresh). */
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { baseApi, type Captcha } from '../api/base.ts';
import { login } from '../app/auth.ts';
import { takeTarget } from '../app/pages.ts';
import { LanguageMenu } from '../layout/LanguageMenu.tsx';
import { Icon } from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';

type Field = 'username' | 'password' | 'verifyCode';

export function LoginPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [form, setForm] = useState({ username: '', password: '', verifyCode: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [captcha, setCaptcha] = useState<Captcha | null>(null);
  const [captchaLoading, setCaptchaLoading] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const refs = {
    username: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    verifyCode: useRef<HTMLInputElement>(null),
  };

  const refreshCaptcha = useCallback(async () => {
    setCaptchaLoading(true);
    try {
      setCaptcha(await baseApi.captcha());
    } catch {
      setCaptcha(null); // the error toast says why
    } finally {
      setCaptchaLoading(false);
    }
  }, []);

  useEffect(() => {
    document.title = `${t`Log in`} · Archwright`;
  }, [t]);

  useEffect(() => {
    void refreshCaptcha();
  }, [refreshCaptcha]);

  const validate = (): Partial<Record<Field, string>> => {
    const next: Partial<Record<Field, string>> = {};
    if (!form.username.trim()) next.username = t`The username cannot be empty`;
    if (!form.password) next.password = t`The password cannot be empty`;
    if (!form.verifyCode.trim()) next.verifyCode = t`The captcha cannot be empty`;
    return next;
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    const found = validate();
    setErrors(found);
    const first = (['username', 'password', 'verifyCode'] as const).find((f) => found[f]);
    if (first) {
      refs[first].current?.focus();
      return;
    }
    setSubmitting(true);
    try {
      await login({
        username: form.username.trim(),
        password: form.password,
        captchaId: captcha?.captchaId ?? '',
        verifyCode: form.verifyCode.trim(),
      });
      await navigate({ href: takeTarget() ?? '/', replace: true });
    } catch {
      // The server's message is shown as a toast; a captcha is good for one try.
      setForm((f) => ({ ...f, verifyCode: '' }));
      void refreshCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  const update = (field: Field) => (e: ChangeEvent<HTMLInputElement>) => {
    const value = e.target.value;
    setForm((f) => ({ ...f, [field]: value }));
    if (errors[field]) setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const fieldProps = (field: Field) => ({
    id: `login-${field}`,
    ref: refs[field],
    value: form[field],
    onChange: update(field),
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `login-${field}-error` : undefined,
    className: 'aw-input',
  });

  const fieldError = (field: Field) =>
    errors[field] ? (
      <p id={`login-${field}-error`} className="aw-field-error" role="alert">
        {errors[field]}
      </p>
    ) : null;

  return (
    <div className="flex min-h-full bg-white">
      <aside className="relative hidden w-[44%] max-w-2xl flex-col justify-between overflow-hidden bg-gradient-to-br from-[#2c4bb8] via-primary to-[#6a8cf0] p-12 text-white lg:flex">
        <div className="flex items-center gap-3">
          <svg viewBox="0 0 32 32" className="size-9" aria-hidden="true">
            <rect width="32" height="32" rx="8" fill="white" fillOpacity="0.16" />
            <path d="M7 21c3-9 15-9 18 0" fill="none" stroke="white" strokeWidth="3" strokeLinecap="round" />
            <circle cx="16" cy="13.5" r="2" fill="white" />
          </svg>
          <span className="text-xl font-semibold tracking-tight">Archwright</span>
        </div>
        <div className="relative z-10 max-w-md">
          <h2 className="text-3xl leading-tight font-semibold">{t`Design orthodontic appliances in the browser`}</h2>
          <p className="mt-4 text-base text-white/80">
            {t`Arch wires, clasps, bows and bases on your patients' jaw models, bent on your own machines.`}
          </p>
        </div>
        <svg viewBox="0 0 400 220" className="pointer-events-none absolute -bottom-24 left-1/2 w-[120%] -translate-x-1/2 opacity-15" aria-hidden="true">
          <path d="M20 200 C 60 30, 340 30, 380 200" fill="none" stroke="white" strokeWidth="6" strokeLinecap="round" />
          <path d="M60 205 C 95 70, 305 70, 340 205" fill="none" stroke="white" strokeWidth="2" strokeDasharray="6 10" />
          {[40, 80, 125, 175, 225, 275, 320, 360].map((x, i) => (
            <circle key={x} cx={x} cy={[175, 110, 75, 58, 58, 75, 110, 175][i]} r="9" fill="white" />
          ))}
        </svg>
        <p className="relative z-10 text-xs text-white/60">© Archwright</p>
      </aside>

      <main className="relative flex flex-1 flex-col items-center justify-center px-6 py-12">
        <div className="absolute top-4 right-4">
          <LanguageMenu />
        </div>
        <div className="w-full max-w-sm">
          <div className="mb-8">
            <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t`Welcome back`}</h1>
            <p className="mt-1.5 text-sm text-slate-500">{t`Sign in to your Archwright account`}</p>
          </div>
          <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
            <div>
              <label htmlFor="login-username" className="aw-label">
                {t`Username`}
              </label>
              <input {...fieldProps('username')} type="text" autoComplete="username" autoFocus placeholder={t`Please enter your username`} />
              {fieldError('username')}
            </div>
            <div>
              <label htmlFor="login-password" className="aw-label">
                {t`Password`}
              </label>
              <input {...fieldProps('password')} type="password" autoComplete="current-password" placeholder={t`Please enter your password`} />
              {fieldError('password')}
            </div>
            <div>
              <label htmlFor="login-verifyCode" className="aw-label">
                {t`Captcha`}
              </label>
              <div className="flex gap-2">
                <input
                  {...fieldProps('verifyCode')}
                  type="text"
                  autoComplete="off"
                  inputMode="text"
                  maxLength={8}
                  placeholder={t`Enter the characters`}
                />
                <button
                  type="button"
                  onClick={() => void refreshCaptcha()}
                  title={t`Click to refresh`}
                  className="flex h-10 w-32 shrink-0 items-center justify-center overflow-hidden rounded-md border border-slate-300 bg-slate-50 outline-none hover:border-primary-light-5 focus-visible:ring-2 focus-visible:ring-primary-light-5"
                >
                  {captcha ? (
                    <img src={captcha.data} alt={t`Captcha image`} className="h-full w-full object-contain" draggable={false} />
                  ) : captchaLoading ? (
                    <Spinner className="size-4" />
                  ) : (
                    <span className="text-xs text-slate-500">{t`Captcha image`}</span>
                  )}
                </button>
                <button type="button" className="aw-btn-icon size-10 shrink-0" onClick={() => void refreshCaptcha()} disabled={captchaLoading}>
                  <Icon name="refresh" className={`size-4 ${captchaLoading ? 'animate-spin' : ''}`} />
                  <span className="sr-only">{t`Refresh captcha`}</span>
                </button>
              </div>
              {fieldError('verifyCode')}
            </div>
            <button type="submit" className="aw-btn-primary mt-2 h-10 w-full" disabled={submitting} aria-busy={submitting || undefined}>
              {submitting && <Spinner className="size-4 text-white" />}
              {t`Log in`}
            </button>
          </form>
        </div>
      </main>
    </div>
  );
}
