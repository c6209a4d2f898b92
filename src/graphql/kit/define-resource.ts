// `defineResource`: a resource's declaration in, its module out (the resolver
// with the relation fields of its references, the REST rows with its actions
// (its lifecycle's and its records'), and the service named after the list),
// ready for its area's index.
import { withArticle } from './article.js';
import { declareResource } from './declared.js';
import { documentExamples } from './examples.js';
import { actionPath, hasLockedStates } from './lifecycle.js';
import type { ResourceModule, ServiceDependencies } from './module.js';
import { relationFields } from './relations.js';
import {
  actionOnlyFields,
  actionsOf,
  completeDeclaration,
  type Resource,
  type ResourceDeclaration,
} from './resource.js';
import { resourceResolver } from './resource-resolver.js';
import { ResourceService } from './resource-service.js';
import { type RestRoute } from './routes.js';
import { actionRoute, resourceRoutes } from './resource-routes.js';

const upperFirst = (name: string) => name[0]!.toUpperCase() + name.slice(1);

function routesOf<T extends object>(resource: Resource<T>): RestRoute[] {
  const { type, area, fullPath, noun, lifecycle, unique } = resource;
  const taken = unique && Object.values(unique).join('; ');
  const locked =
    lifecycle && hasLockedStates(lifecycle) && `The ${noun[0]} is no longer ${lifecycle.editableIn.join(' or ')}`;
  const closed = lifecycle?.final && `A ${lifecycle.final.name} ${noun[0]}'s ${lifecycle.field} cannot change`;
  const examples = documentExamples(resource as unknown as Resource);
  const rows = resourceRoutes({
    path: fullPath,
    tag: area.tag,
    type,
    noun,
    names: resource.names,
    list: resource.list,
    input: resource.input,
    only: ['list', 'get', ...(resource.input ? (['create'] as const) : [])].concat(
      resource.operations.update ? ['update'] : [],
      resource.operations.delete ? ['delete'] : [],
    ) as ('list' | 'get' | 'create' | 'update' | 'delete')[],
    descriptions: resource.descriptions,
    conflicts: {
      create: [taken, resource.conflicts?.create].filter(Boolean).join('; ') || undefined,
      update: [taken, locked, closed, resource.conflicts?.update].filter(Boolean).join('; ') || undefined,
      delete:
        [
          lifecycle?.deletableIn && `The ${noun[0]} is not ${lifecycle.deletableIn.join(' or ')}`,
          resource.conflicts?.delete,
        ]
          .filter(Boolean)
          .join('; ') || undefined,
    },
    actionOnly: actionOnlyFields(resource as unknown as Resource),
    newRecord: lifecycle && { [lifecycle.field]: lifecycle.initial },
    examples,
    created: resource.secret?.type,
    accepted: resource.accepted,
    forbidden: resource.forbidden,
  });
  for (const [name, action] of Object.entries(actionsOf(resource))) {
    rows.push(
      actionRoute({
        path: `${fullPath}/:id/${actionPath(name)}`,
        tag: area.tag,
        summary: action.summary ?? `${upperFirst(actionPath(name).replaceAll('-', ' '))} ${withArticle(noun[0])}`,
        description: `${action.description} Emits \`${action.event.type}\`${
          action.otherwise ? ` (or \`${action.otherwise.event.type}\`)` : ''
        }.`,
        mutation: action.mutation ?? `${name}${type.name}`,
        operationId: action.mutation ?? `${name}${upperFirst(resource.names.one)}`,
        bodyName: `${type.name}${upperFirst(name)}`,
        type: action.issuesSecret ? resource.secret!.type : type,
        body: action.input && {
          schema: action.input.schema,
          inputType: `${upperFirst(name)}${type.name}Input`,
          optional: action.input.optional,
        },
        status: action.status,
        conflict:
          [action.from && `The ${noun[0]} is not ${action.from.join(' or ')}`, action.conflict]
            .filter(Boolean)
            .join('; ') || undefined,
        example: examples.actions[name],
      }),
    );
  }
  return rows;
}

export interface DefinedResource<T extends { id: string }, N extends string> {
  resource: Resource<T>;
  module: ResourceModule<{ [K in N]: ResourceService<T> }>;
}

export function defineResource<T extends { id: string }, N extends string>(
  declaration: ResourceDeclaration<T> & { names: { one: string; many: N } },
): DefinedResource<T, N> {
  const resource = completeDeclaration(declaration);
  // A system resource's prefix is src/ids.ts's, and it is none of the business records (resource.ts `system`).
  if (!resource.system) declareResource(resource as unknown as Resource);
  const services = {
    [resource.names.many]: (deps: ServiceDependencies) => new ResourceService(resource, deps),
  } as unknown as ResourceModule<{
    [K in N]: ResourceService<T>;
  }>['services'];
  return {
    resource,
    module: {
      resolvers: [resourceResolver(resource), ...relationFields(resource)],
      routes: routesOf(resource),
      services,
    },
  };
}
