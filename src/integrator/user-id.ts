// The integrator's id of a user, as every room that names one accepts it.

/**
 * The integrator's id of the user an address belongs to. It names the user in the profile request's path and in
 * storage paths, and is the AVI's `id_usuario` (at most 30 of A-Z, digits, `-` and `_`; lower-case letters are
 * accepted and written upper-case in the AVI), so nothing else is accepted.
 */
export const FOREIGN_USER_ID_PATTERN = "^[A-Za-z0-9_-]{1,30}$";
