// Baseline: the Eigen/Dense include and an empty main.
#include <Eigen/Dense>
int main() { return 0; }
