/**
 * The import structure of src/, checked by `npm run lint` (docs/decisions.md, "Code structure").
 * Type-only imports count: a cycle through types still ties two modules together.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules of src/ import each other in one direction only.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'loader-is-a-client',
      severity: 'error',
      comment:
        'The bulk loader talks to the service over HTTP: it imports only its own modules and ' +
        'src/shared/, which imports nothing of the server.',
      from: { path: '^src/loader/' },
      to: { path: '^src/', pathNot: '^src/(loader|shared)/' },
    },
    {
      name: 'shared-is-neutral',
      severity: 'error',
      comment: 'src/shared/ holds pure code used by the service and its clients alike.',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Folders of src/ depend on each other in one direction only.',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
