import { pathSuite } from './paths-suite.js';

pathSuite('node');
