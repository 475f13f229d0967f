#define NEW 1
