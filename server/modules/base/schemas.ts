import { z } from 'zod';

const username = z.string().trim().min(1).max(100);
const newPassword = z.string().min(6).max(128);

export const loginSchema = z.object({
  username,
  password: z.string().min(1).max(128),
  captchaId: z.string().max(64).optional(),
  verifyCode: z.string().max(16).optional(),
});

export const refreshSchema = z.object({ refreshToken: z.string().min(1).max(256) });

export const captchaQuery = z.object({
  width: z.coerce.number().optional(),
  height: z.coerce.number().optional(),
});

export const personUpdateSchema = z.object({
  nickName: z.string().trim().max(255).optional(),
  headImg: z.string().max(1024).nullable().optional(),
  name: z.string().trim().max(255).nullable().optional(),
  phone: z.string().max(32).nullable().optional(),
  email: z.string().max(255).nullable().optional(),
  oldPassword: z.string().max(128).optional(),
  password: newPassword.optional(),
});

export const userAddSchema = z.object({
  username,
  password: newPassword,
  name: z.string().trim().max(255).nullable().optional(),
  nickName: z.string().trim().max(255).nullable().optional(),
  headImg: z.string().max(1024).nullable().optional(),
  phone: z.string().max(32).nullable().optional(),
  email: z.string().max(255).nullable().optional(),
  remark: z.string().max(1024).nullable().optional(),
  roleIdList: z.array(z.coerce.number().int().positive()).max(100).default([]),
  departmentId: z.coerce.number().int().positive().nullable().optional(),
  status: z.coerce.number().int().min(0).max(1).default(1),
});

export type LoginInput = z.output<typeof loginSchema>;
export type PersonUpdateInput = z.output<typeof personUpdateSchema>;
export type UserAddInput = z.output<typeof userAddSchema>;
