import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

const slug = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'must be letters, digits, ".", "_" or "-", starting with a letter or digit');

const versionSchema = z.strictObject({
  slug,
  verboseName: z.string().optional(),
  type: z.enum(['branch', 'tag']).default('branch'),
  identifier: z.string().optional(),
  /** For `stable`: the slug of the version it points to. */
  ref: z.string().nullable().default(null),
  active: z.boolean().default(true),
  hidden: z.boolean().default(false),
  privacyLevel: z.enum(['public', 'private']).default('public'),
  /** Folder of built HTML, relative to the manifest. Versions without one are not built. */
  path: z.string().optional(),
  downloads: z.partialRecord(z.enum(['pdf', 'htmlzip', 'epub']), z.string()).default({}),
});

/** A language code as the hosting service's URLs name one (`en`, `pt-br`, `zh_CN`). */
export const LANGUAGE_CODE = /^[a-z]{2,3}([_-][a-zA-Z]{2,4})?$/;

const projectSchema = z.strictObject({
  slug,
  name: z.string().min(1),
  language: z.string().regex(LANGUAGE_CODE, 'must be a language code such as "en" or "pt-br"').default('en'),
  programmingLanguage: z.string().default('words'),
  repository: z.string().default(''),
  defaultVersion: slug.default('latest'),
  defaultBranch: z.string().default('main'),
  tags: z.array(z.string()).default([]),
  translationOf: slug.optional(),
  subprojectOf: slug.optional(),
  /** URL segment of a subproject under its parent: `/projects/<alias>/…`. */
  alias: slug.optional(),
  versions: z.array(versionSchema).min(1),
});

export const manifestSchema = z.strictObject({ projects: z.array(projectSchema).min(1) });

export type VersionEntry = z.infer<typeof versionSchema>;
export type ProjectEntry = z.infer<typeof projectSchema>;
export type Manifest = z.infer<typeof manifestSchema>;

export class ManifestError extends Error {
  override name = 'ManifestError';
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

function checkReferences(manifest: Manifest): void {
  const slugs = new Set<string>();
  for (const project of manifest.projects) {
    if (slugs.has(project.slug)) throw new ManifestError(`project "${project.slug}" is listed twice`);
    slugs.add(project.slug);
  }
  for (const project of manifest.projects) {
    const where = `project "${project.slug}"`;
    for (const parent of [project.translationOf, project.subprojectOf]) {
      if (parent !== undefined && !slugs.has(parent)) throw new ManifestError(`${where} refers to unknown project "${parent}"`);
    }
    if (project.translationOf && project.subprojectOf) throw new ManifestError(`${where} cannot be both a translation and a subproject`);
    if (project.subprojectOf && !project.alias) throw new ManifestError(`${where} is a subproject and needs an "alias"`);
    const versions = new Set(project.versions.map((version) => version.slug));
    if (versions.size !== project.versions.length) throw new ManifestError(`${where} lists a version twice`);
    if (!versions.has(project.defaultVersion)) {
      throw new ManifestError(`${where}: default version "${project.defaultVersion}" is not among its versions`);
    }
  }
}

/** Validates a manifest and makes its folders absolute against `baseDir`, checking that they exist. */
export function parseManifest(data: unknown, baseDir: string): Manifest {
  const parsed = manifestSchema.safeParse(data);
  if (!parsed.success) throw new ManifestError(`invalid manifest: ${describeIssues(parsed.error)}`);
  const manifest = parsed.data;
  checkReferences(manifest);
  for (const project of manifest.projects) {
    for (const version of project.versions) {
      if (version.path === undefined) continue;
      version.path = resolve(baseDir, version.path);
      if (!existsSync(version.path) || !statSync(version.path).isDirectory()) {
        throw new ManifestError(`project "${project.slug}" version "${version.slug}": folder ${version.path} does not exist`);
      }
    }
  }
  return manifest;
}

export function loadManifest(file: string): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ManifestError(`cannot read manifest ${file}: ${(error as Error).message}`);
  }
  return parseManifest(data, dirname(resolve(file)));
}

/** A manifest for one folder of built HTML served as one project and version. */
export function singleFolderManifest(options: { docs: string; project: string; version: string; language: string }): Manifest {
  return parseManifest(
    {
      projects: [
        {
          slug: options.project,
          name: options.project,
          language: options.language,
          defaultVersion: options.version,
          versions: [{ slug: options.version, path: options.docs }],
        },
      ],
    },
    process.cwd(),
  );
}
