// Baseline: the Eigen/Core include and an empty main.
#include <Eigen/Core>
int main() { return 0; }
