// Value sets of SPEC.md §3, shared by server and web.
export const ROLES = ['admin', 'operator'] as const;
export type Role = (typeof ROLES)[number];

export const CASE_STATUSES = ['active', 'closed', 'pending', 'resolved'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const AMBULANCE_STATUSES = ['available', 'busy', 'maintenance'] as const;
export type AmbulanceStatus = (typeof AMBULANCE_STATUSES)[number];

/** 1 Morning, 2 Evening, 3 Night */
export const SHIFTS = { 1: 'Morning', 2: 'Evening', 3: 'Night' } as const;
/** 0 Male, 1 Female, 2 Other */
export const GENDERS = { 0: 'Male', 1: 'Female', 2: 'Other' } as const;
