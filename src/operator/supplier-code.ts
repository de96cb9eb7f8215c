/** What an import supplier's code may be: for the operator commands, and for `sample`. */
export const SUPPLIER_CODE = /^[A-Za-z0-9_-]{1,64}$/;
export const SUPPLIER_CODE_RULE = 'use 1 to 64 letters, digits, "_" or "-"';
