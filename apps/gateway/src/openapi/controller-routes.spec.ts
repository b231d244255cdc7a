import {
  Body,
  Controller,
  Get,
  Headers,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import { IsInt, IsString } from 'class-validator';
import { Role } from '@tollgate/contracts';
import { RequireRole } from '../auth/auth.decorators';
import { controllerRoutes, roleName } from './controller-routes';

class WidgetBody {
  @IsString() name!: string;
}

class WidgetQuery {
  @IsInt() p?: number;
}

@Controller('api/widget')
@RequireRole(Role.Common)
class WidgetController {
  @Get()
  list(@Query() _query: WidgetQuery) {}

  @Get(':id')
  @RequireRole(Role.Root)
  get(@Param('id', ParseIntPipe) _id: number) {}

  @Post('batchMake')
  batchMake(@Body() _body: WidgetBody, @Headers('x-signature') _signature: string) {}

  @Put(':slug')
  @RequireRole(Role.Admin)
  rename(@Param('slug') _slug: string, @Body() _body: unknown, @Query('force') _force: string) {}

  helper() {}
}

@Controller()
class OpenController {
  @Get('api/open')
  open() {}
}

describe('controllerRoutes', () => {
  const routes = controllerRoutes([WidgetController, OpenController]);
  const route = (key: string) => routes.find((r) => `${r.method} ${r.path}` === key);

  it('finds every decorated handler, with Nest path joining and OpenAPI templates', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
      'GET /api/open',
      'GET /api/widget',
      'GET /api/widget/{id}',
      'POST /api/widget/batchMake',
      'PUT /api/widget/{slug}',
    ]);
  });

  it("takes the handler's RequireRole over the class's, and public without either", () => {
    expect(route('GET /api/widget')?.role).toBe('user');
    expect(route('GET /api/widget/{id}')?.role).toBe('root');
    expect(route('PUT /api/widget/{slug}')?.role).toBe('admin');
    expect(route('GET /api/open')?.role).toBe('public');
  });

  it('reads the DTO classes of @Query() and @Body(), and the types of @Param()', () => {
    expect(route('GET /api/widget')?.query).toBe(WidgetQuery);
    expect(route('POST /api/widget/batchMake')).toMatchObject({
      body: WidgetBody,
      tag: 'Widget',
      operationId: 'Widget_batchMake',
      summary: 'batch make',
      family: 'console',
      headerNames: ['x-signature'],
    });
    expect(route('GET /api/widget/{id}')?.pathParams).toEqual([{ name: 'id', type: 'integer' }]);
    const rename = route('PUT /api/widget/{slug}');
    expect(rename?.pathParams).toEqual([{ name: 'slug', type: 'string' }]);
    expect(rename?.body).toBe('object');
    expect(rename?.queryNames).toEqual(['force']);
    expect(route('GET /api/open')?.body).toBeUndefined();
  });

  it('names the roles of RequireRole values', () => {
    expect([undefined, 1, 10, 100].map(roleName)).toEqual(['public', 'user', 'admin', 'root']);
  });
});
