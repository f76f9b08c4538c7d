import type { UserDto } from '../contract';
import type { UserRow } from '../../db/repositories/types';

export const presentUser = (u: UserRow): UserDto => ({
  id: u.id,
  name: u.name,
  email: u.email,
  phone: u.phone,
  address: u.address,
  role: u.role,
  shift: u.shift,
  location: u.location,
  gender: u.gender,
  active: Boolean(u.active),
  created_at: u.created_at,
  updated_at: u.updated_at,
  version: u.version,
});
