/** /my/info: the personal centre: who is logged in, avatar, nickname, theme, password change. */
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { baseApi } from '../api/base.ts';
import { session } from '../api/client.ts';
import { reloadUser, useApp } from '../app/store.ts';
import { uploadFile } from '../kit/upload.ts';
import { ThemeSwatches } from '../layout/ThemeMenu.tsx';
import { ToothNumberingChoice } from '../layout/ToothNumberingChoice.tsx';
import { Avatar, displayName } from '../layout/TopBar.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { toast } from '../ui/toast.tsx';

export function MyInfoPage() {
  const { t } = useLingui();
  const { user } = useApp();

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-5 p-4 sm:p-6">
      <section className="aw-card flex flex-wrap items-center gap-4 p-5">
        <AvatarUpload />
        <div className="min-w-0 flex-1">
          <h1 className="truncate text-lg font-semibold text-slate-900">{displayName(user) || t`Personal center`}</h1>
          <dl className="mt-0.5 flex flex-wrap gap-x-4 text-sm text-slate-500">
            <div className="flex gap-1">
              <dt>{t`Username`}:</dt>
              <dd className="font-medium text-slate-700" data-testid="my-username">
                {user?.username ?? '—'}
              </dd>
            </div>
            {user?.name && (
              <div className="flex gap-1">
                <dt>{t`Name`}:</dt>
                <dd className="text-slate-700">{user.name}</dd>
              </div>
            )}
          </dl>
        </div>
      </section>
      <ProfileForm key={user?.id ?? 0} nickName={user?.nickName ?? ''} />
      <Section title={t`Theme`}>
        <ThemeSwatches />
      </Section>
      <Section title={t`Tooth numbers`}>
        <ToothNumberingChoice />
      </Section>
      <PasswordForm />
    </div>
  );
}

/** The avatar with a button that uploads a new picture and saves it as the user's headImg. */
function AvatarUpload() {
  const { t } = useLingui();
  const { user } = useApp();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const headImg = await uploadFile(file, { kind: 'image' });
      await baseApi.personUpdate({ headImg });
      await reloadUser();
      toast.success(t`Save successful`);
    } catch (e) {
      // Upload failures come with their message; a failed save was already shown by the client.
      if (!(e instanceof Error && e.name === 'ApiError')) toast.error(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };
  return (
    <div className="flex flex-col items-center gap-1.5">
      <Avatar user={user} large />
      <button type="button" className="text-xs text-primary hover:underline disabled:opacity-60" disabled={busy} onClick={() => input.current?.click()}>
        {busy ? <Spinner className="size-3.5" /> : t`Change avatar`}
      </button>
      <input ref={input} type="file" accept="image/*" hidden aria-label={t`Change avatar`} onChange={(e) => void onFile(e.target.files?.[0])} />
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="aw-card" aria-labelledby={id}>
      <h2 id={id} className="border-b border-slate-100 px-5 py-3.5 text-base font-semibold text-slate-800">
        {title}
      </h2>
      <div className="p-5">{children}</div>
    </section>
  );
}

function Field(props: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  autoComplete?: string;
  error?: string | undefined;
}) {
  return (
    <div className="grid gap-1 sm:grid-cols-[10rem_1fr] sm:items-start sm:gap-4">
      <label htmlFor={props.id} className="aw-label sm:mt-2.5 sm:mb-0">
        {props.label}
      </label>
      <div>
        <input
          id={props.id}
          type={props.type ?? 'text'}
          autoComplete={props.autoComplete}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${props.id}-error` : undefined}
          className="aw-input max-w-md"
        />
        {props.error && (
          <p id={`${props.id}-error`} role="alert" className="aw-field-error">
            {props.error}
          </p>
        )}
      </div>
    </div>
  );
}

function ProfileForm({ nickName: initial }: { nickName: string }) {
  const { t } = useLingui();
  const [nickName, setNickName] = useState(initial);
  const [saving, setSaving] = useState(false);
  useEffect(() => setNickName(initial), [initial]);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    try {
      await baseApi.personUpdate({ nickName: nickName.trim() });
      await reloadUser();
      toast.success(t`Save successful`);
    } catch {
      // toast shown by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Section title={t`Basic information`}>
      <form onSubmit={onSubmit} className="flex flex-col gap-4">
        <Field id="my-nickname" label={t`Nickname`} value={nickName} onChange={setNickName} autoComplete="nickname" />
        <div className="sm:pl-44">
          <button type="submit" className="aw-btn-primary" disabled={saving}>
            {saving && <Spinner className="size-4 text-white" />}
            {t`Save`}
          </button>
        </div>
      </form>
    </Section>
  );
}

function PasswordForm() {
  const { t } = useLingui();
  const empty = { oldPassword: '', password: '', confirm: '' };
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<Partial<Record<keyof typeof empty, string>>>({});
  const [saving, setSaving] = useState(false);
  const set = (key: keyof typeof empty) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found: typeof errors = {};
    if (!form.oldPassword) found.oldPassword = t`The current password cannot be empty`;
    if (!form.password) found.password = t`The new password cannot be empty`;
    else if (form.password !== form.confirm) found.confirm = t`The two passwords do not match`;
    setErrors(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      // The server ends every session of this user, this one too: say so instead of letting the
      // next call (or one under way, a poll) fail with "logged in elsewhere".
      await session.revoking(() => baseApi.personUpdate({ oldPassword: form.oldPassword, password: form.password }));
      toast.success(t`Password changed, please log in again`);
      session.logout('user');
    } catch {
      // toast shown by the client
    } finally {
      setSaving(false);
    }
  };

  return (
    <Section title={t`Change password`}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <Field id="my-old-password" type="password" autoComplete="current-password" label={t`Current password`} value={form.oldPassword} onChange={set('oldPassword')} error={errors.oldPassword} />
        <Field id="my-new-password" type="password" autoComplete="new-password" label={t`New password`} value={form.password} onChange={set('password')} error={errors.password} />
        <Field id="my-confirm-password" type="password" autoComplete="new-password" label={t`Confirm password`} value={form.confirm} onChange={set('confirm')} error={errors.confirm} />
        <div className="sm:pl-44">
          <button type="submit" className="aw-btn-primary" disabled={saving}>
            {saving && <Spinner className="size-4 text-white" />}
            {t`Change password`}
          </button>
        </div>
      </form>
    </Section>
  );
}
