import { GENDERS, SHIFTS, type UserDto } from '../../../api/contract';

/** The Add/Edit Operator form as typed: selects hold their code as text, '' when unset. */
export interface OperatorForm {
  name: string;
  email: string;
  role: 'operator';
  shift: string;
  gender: string;
  address: string;
  location: string;
  phone: string;
}

export const emptyOperatorForm: OperatorForm = {
  name: '', email: '', role: 'operator', shift: '', gender: '', address: '', location: '', phone: '',
};

export const SHIFT_OPTIONS = Object.entries(SHIFTS).map(([code, label]) => ({ code, label }));
export const GENDER_OPTIONS = Object.entries(GENDERS).map(([code, label]) => ({ code, label }));

export function formFromOperator(u: UserDto): OperatorForm {
  return {
    name: u.name ?? '',
    email: u.email ?? '',
    role: 'operator',
    shift: u.shift == null ? '' : String(u.shift),
    gender: u.gender == null ? '' : String(u.gender),
    address: u.address ?? '',
    location: u.location ?? '',
    phone: u.phone ?? '',
  };
}

const numberOrNull = (v: string) => (v === '' ? null : Number(v));

/** Body of POST /api/users and PUT /api/users/{id}: shift and gender as numbers, or null when empty. */
export function operatorBody(f: OperatorForm) {
  return {
    name: f.name.trim(),
    email: f.email.trim(),
    role: f.role,
    address: f.address.trim(),
    shift: numberOrNull(f.shift),
    gender: numberOrNull(f.gender),
    location: f.location.trim(),
    phone: f.phone.trim(),
  };
}

/** Required fields that are still empty, by field name. */
export function missingFields(f: OperatorForm): (keyof OperatorForm)[] {
  return (['name', 'email', 'role', 'shift', 'gender'] as const).filter((k) => f[k].trim() === '');
}

/** The list's shift column: the shift's name, or its number when unknown. */
export const shiftText = (shift: number | null) =>
  shift == null ? '—' : (SHIFTS as Record<number, string>)[shift] ?? String(shift);

/** The list's gender column (SPEC §2): Male for 0, Female otherwise; a dash when never set. */
export const genderListText = (gender: number | null) => (gender == null ? '—' : gender === 0 ? 'Male' : 'Female');
